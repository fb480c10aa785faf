import { expect, test } from '@playwright/test';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { randomUUID } from 'node:crypto';
import { IDP } from '../support/system';

type Admin = Awaited<ReturnType<typeof signInAsAdmin>>;

/** What a client and Keycloak itself use of a realm's keys: which there are, for what, and with a certificate or not. */
async function keysOf(admin: Admin, realm: string): Promise<string[]> {
  const { keys } = await admin.realms.getKeys({ realm });
  if (!keys?.length) throw new Error(`realm "${realm}" at ${IDP} lists no keys`);
  // (keycloak-admin-client's KeyMetadataRepresentation lacks `use`, which Keycloak sends)
  return (keys as ((typeof keys)[number] & { use?: string })[])
    .map((key) => `${key.algorithm} ${key.use} ${key.type} ${key.status}${key.certificate ? ' with a certificate' : ''}`)
    .sort();
}

// testRealm() brings its RSA keys along (decisions/0105): Keycloak then makes none of its own, so the realm must
// name all four kinds a new realm gets, the way the demo realm (imported from the realm file) got them.
test('a test realm has the same kinds of keys Keycloak gives a realm it generates them for', async () => {
  const name = `keys-${randomUUID().slice(0, 8)}`;
  const admin = await signInAsAdmin(IDP);
  await admin.realms.create(testRealm(name));
  try {
    const generated = await keysOf(admin, 'gatehouse');
    expect(generated).toEqual([
      'AES ENC OCT ACTIVE',
      'HS512 SIG OCT ACTIVE',
      'RS256 SIG RSA ACTIVE with a certificate',
      'RSA-OAEP ENC RSA ACTIVE with a certificate',
    ]);
    expect(await keysOf(admin, name)).toEqual(generated);
  } finally {
    await admin.realms.del({ realm: name });
  }
});
