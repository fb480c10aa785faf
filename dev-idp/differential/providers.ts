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
 * The real Keycloak named by `KEYCLOAK_URL` (admin/admin, or `KEYCLOAK_ADMIN_USER`/`_PASSWORD`). The
 * differential test needs Java and a running Keycloak, so it is its own script, never part of `npm test`.
 */
export function keycloakFromEnvironment(): Provider {
  const url = process.env.KEYCLOAK_URL?.replace(/\/$/, '');
  if (!url) {
    throw new Error(
      'KEYCLOAK_URL is not set: start Keycloak 26 (kc.sh start-dev --http-port 8180) and run with KEYCLOAK_URL=http://localhost:8180',
    );
  }
  return { name: 'keycloak', url, close: async () => {} };
}

export async function startDevIdpProvider(): Promise<Provider> {
  const idp = await startDevIdp({ port: 0, quiet: true });
  return { name: 'dev-idp', url: idp.url, close: () => idp.close() };
}

/** The master realm's admin client of a provider. */
export async function adminOf(provider: Provider): Promise<KcAdminClient> {
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
