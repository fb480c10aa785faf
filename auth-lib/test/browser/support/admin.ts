import type { RunningIdp } from './devIdp';

type AdminClient = InstanceType<typeof import('@keycloak/keycloak-admin-client').default>;

/** An admin API client signed in to realm master (the dev provider's default administrator). */
export async function adminClient(idp: RunningIdp): Promise<AdminClient> {
  const { default: KcAdminClient } = await import('@keycloak/keycloak-admin-client');
  const admin = new KcAdminClient({ baseUrl: idp.url, realmName: 'master' });
  await admin.auth({ username: 'admin', password: 'admin', grantType: 'password', clientId: 'admin-cli' });
  return admin;
}
