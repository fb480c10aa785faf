import KcAdminClient from '@keycloak/keycloak-admin-client';

import { startDevIdp } from '../src/index.js';
import type { RealmRepresentation } from '../src/index.js';

/** A provider under comparison: its base URL (keycloak-js `url`) and how to end it. */
export interface Provider {
  name: 'keycloak' | 'dev-idp';
  url: string;
  close(): Promise<void>;
}

/**
 * The real Keycloak to compare with: the one `KEYCLOAK_URL` names (its admin: `KEYCLOAK_ADMIN_USER`/`_PASSWORD`, else the
 * runner's generated password, else admin/admin),
 * else one started here through the testkit's runner (`npm run keycloak`'s: Keycloak 26 from Maven, Java 21+)
 * on `KEYCLOAK_HTTP_PORT` (default 8180) and management port `KEYCLOAK_MANAGEMENT_PORT` (default 9001), and
 * stopped at the end. It needs Java, so the differential test is its own script, never part of `npm test`.
 */
export async function keycloakProvider(): Promise<Provider> {
  const url = process.env.KEYCLOAK_URL?.replace(/\/$/, '');
  if (url) return { name: 'keycloak', url, close: async () => {} };
  const { startKeycloak } = (await import('@gatehouse/testkit/keycloak')) as {
    startKeycloak(options: { httpPort?: number; managementPort?: number }): Promise<{ url: string; stop(): Promise<void> }>;
  };
  const running = await startKeycloak({
    httpPort: Number(process.env.KEYCLOAK_HTTP_PORT ?? 8180),
    managementPort: Number(process.env.KEYCLOAK_MANAGEMENT_PORT ?? 9001),
  });
  return { name: 'keycloak', url: running.url, close: () => running.stop() };
}

export async function startDevIdpProvider(): Promise<Provider> {
  const idp = await startDevIdp({ port: 0, quiet: true });
  return { name: 'dev-idp', url: idp.url, close: () => idp.close() };
}

/** The master realm's admin client of a provider. */
export async function adminOf(provider: Provider): Promise<KcAdminClient> {
  if (process.env.KEYCLOAK_ADMIN_PASSWORD === undefined) {
    // the testkit's sign-in: the generated password of a Keycloak the runner started (.keycloak/admin-password), else admin
    const { signInAsAdmin } = (await import('@gatehouse/testkit/admin')) as {
      signInAsAdmin(baseUrl: string, credentials?: { username?: string }): Promise<KcAdminClient>;
    };
    return signInAsAdmin(provider.url, { username: process.env.KEYCLOAK_ADMIN_USER ?? 'admin' });
  }
  const admin = new KcAdminClient({ baseUrl: provider.url, realmName: 'master' });
  await admin.auth({
    grantType: 'password',
    clientId: 'admin-cli',
    username: process.env.KEYCLOAK_ADMIN_USER ?? 'admin',
    password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
  });
  return admin;
}

/** Creates `rep` on the provider (deleting a leftover realm of the same name first). */
export async function createRealm(provider: Provider, rep: RealmRepresentation): Promise<void> {
  const admin = await adminOf(provider);
  const name = rep.realm ?? '';
  await admin.realms.del({ realm: name }).catch((error: unknown) => {
    if ((error as { response?: Response }).response?.status !== 404) throw error;
  });
  await admin.realms.create(rep as Parameters<KcAdminClient['realms']['create']>[0]);
}

export async function deleteRealm(provider: Provider, name: string): Promise<void> {
  const admin = await adminOf(provider);
  await admin.realms.del({ realm: name });
}
