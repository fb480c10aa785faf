import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { IDP } from '../../support/system';

/** The Keycloak version answering on :8080, from the admin API's server info (the dev provider has none). */
export async function keycloakVersion(): Promise<string | undefined> {
  const admin = await signInAsAdmin(IDP);
  return (await admin.serverInfo.find()).systemInfo?.version;
}

/** Keycloak's brute-force record of a demo user (`GET /admin/realms/gatehouse/attack-detection/brute-force/users/{id}`). */
export async function loginFailures(username: string): Promise<{ numFailures: number; disabled: boolean }> {
  const admin = await signInAsAdmin(IDP);
  const [user] = await admin.users.find({ realm: 'gatehouse', username, exact: true });
  if (!user?.id) throw new Error(`no user "${username}" in realm "gatehouse" at ${IDP}`);
  const record = await admin.attackDetection.findOne({ realm: 'gatehouse', id: user.id });
  if (typeof record?.numFailures !== 'number' || typeof record.disabled !== 'boolean') {
    throw new Error(`unreadable brute-force record for "${username}": ${JSON.stringify(record)}`);
  }
  return { numFailures: record.numFailures, disabled: record.disabled };
}
