import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { withDemoClientScopes } from '@gatehouse/testkit/realm-scopes';
import { endSessionsOf, signInAsAdmin } from '@gatehouse/testkit/admin';
import { randomUUID } from 'node:crypto';
import { IDENTITY_PROVIDER, previewConfig, SHELL, type ShellConfigJson } from './topology';

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
 * A fresh realm under a new name — dev-idp's `testRealm()`: the demo realm's roles and client, the
 * user alice/alice with every role, redirect URIs on the production shell's origin — created through
 * the admin API of the provider on :8080, so a scenario can change lifespans and end sessions without
 * touching the realm other specs use. Works the same against a real Keycloak.
 */
export async function createTestRealm(purpose: string, lifespans: Lifespans = {}): Promise<TestRealm> {
  const name = `e2e-${purpose}-${randomUUID().slice(0, 8)}`;
  await (
    await signInAsAdmin(IDENTITY_PROVIDER)
  ).realms.create({ ...withDemoClientScopes(testRealm(name, { origin: SHELL })), displayName: `e2e ${purpose}`, ...lifespans });

  return {
    name,
    config(identityProviderUrl = IDENTITY_PROVIDER) {
      const config = previewConfig();
      config.identityProvider = { ...config.identityProvider, url: identityProviderUrl, realm: name };
      return config;
    },
    // Each call signs in again: Keycloak's admin tokens (realm master) last 60 s, less than a scenario.
    async logout(username) {
      await endSessionsOf(IDENTITY_PROVIDER, name, username);
    },
    async delete() {
      await (await signInAsAdmin(IDENTITY_PROVIDER)).realms.del({ realm: name });
    },
  };
}
