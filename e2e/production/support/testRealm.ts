import KcAdminClient from '@keycloak/keycloak-admin-client';
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './previewProcess';
import { IDENTITY_PROVIDER, previewConfig, type ShellConfigJson } from './topology';

/** The lifespans (seconds) a scenario shortens; absent ones keep the demo realm's. */
export interface Lifespans {
  accessTokenLifespan?: number;
  ssoSessionIdleTimeout?: number;
  ssoSessionMaxLifespan?: number;
}

export interface TestRealm {
  readonly name: string;
  /** the preview's config.json pointed at this realm (and at `identityProviderUrl`, if given) */
  config(identityProviderUrl?: string): ShellConfigJson;
  /** ends every session of `username`, as an administrator does in Keycloak's console */
  logout(username: string): Promise<void>;
  delete(): Promise<void>;
}

/**
 * A fresh copy of the demo realm (same client, roles and users) under a new name, created through the
 * admin API of the provider on :8080 — so a scenario can change lifespans and end sessions without
 * touching the realm other specs use. Works the same against a real Keycloak.
 */
export async function createTestRealm(purpose: string, lifespans: Lifespans = {}): Promise<TestRealm> {
  const name = `e2e-${purpose}-${randomUUID().slice(0, 8)}`;
  const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.json'), 'utf8')) as RealmRepresentation;
  // The default-roles composite is named after the realm.
  const realm = JSON.parse(JSON.stringify(demo).replaceAll('default-roles-gatehouse', `default-roles-${name}`)) as RealmRepresentation;
  Object.assign(realm, { realm: name, displayName: `e2e ${purpose}`, ...lifespans });

  const admin = new KcAdminClient({ baseUrl: IDENTITY_PROVIDER, realmName: 'master' });
  await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'admin', password: 'admin' });
  await admin.realms.create(realm);
  admin.setConfig({ realmName: name });

  return {
    name,
    config(identityProviderUrl = IDENTITY_PROVIDER) {
      const config = previewConfig();
      config.identityProvider = { ...config.identityProvider, url: identityProviderUrl, realm: name };
      return config;
    },
    async logout(username) {
      const [user] = await admin.users.find({ username, exact: true });
      if (!user?.id) throw new Error(`no user "${username}" in realm ${name}`);
      await admin.users.logout({ id: user.id });
    },
    async delete() {
      admin.setConfig({ realmName: 'master' });
      await admin.realms.del({ realm: name });
    },
  };
}
