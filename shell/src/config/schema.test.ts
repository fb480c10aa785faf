import { readFileSync } from 'node:fs';
import type { SessionConfig } from '@gatehouse/auth-lib';
import { REMOTE_DEFAULTS } from './validate';

// The schema the shell validates with (@gatehouse/config) against what the shell and auth-lib do with a config.
const schema = JSON.parse(readFileSync(require.resolve('@gatehouse/config/config.schema.json'), 'utf8')) as {
  definitions: Record<string, { properties: Record<string, { default?: unknown }>; required?: string[] }>;
};

test("identityProvider in the schema has exactly auth-lib's session options, and the same required ones", () => {
  // The compiler holds this list to SessionConfig: a key missing here or not in SessionConfig fails `npm run typecheck`.
  // `apis` is no identityProvider option: the shell derives it from the registry's remotes (sessionConfig.ts).
  // `sessionEvents` is no identityProvider option either: the session-events service is not the provider (the shell's
  // wiring of it, from a config field of its own, is still to come).
  const options: Record<keyof Omit<SessionConfig, 'apis' | 'sessionEvents'>, 'required' | 'optional'> = {
    url: 'required',
    realm: 'required',
    clientId: 'required',
    trustedOrigins: 'optional',
    silentCheckSsoRedirectUri: 'optional',
    checkLoginIframeInterval: 'optional',
    messageReceiveTimeout: 'optional',
    minValidity: 'optional',
    timeout: 'optional',
    expiryWarningSeconds: 'optional',
    idleTimeoutMinutes: 'optional',
    sessionWatchSeconds: 'optional',
    sessionWatchIdleSeconds: 'optional',
    scopes: 'optional',
  };
  const identityProvider = schema.definitions.identityProvider!;
  expect(Object.keys(identityProvider.properties).sort()).toEqual(Object.keys(options).sort());
  expect([...(identityProvider.required ?? [])].sort()).toEqual(
    Object.keys(options)
      .filter((key) => options[key as keyof typeof options] === 'required')
      .sort(),
  );
});

test("the schema's defaults for a remote are the ones the shell fills in", () => {
  const remote = schema.definitions.remote!.properties;
  expect({ module: remote.module?.default, realmRoles: remote.realmRoles?.default, clientRoles: remote.clientRoles?.default }).toEqual(
    REMOTE_DEFAULTS,
  );
});
