// Which identity provider the browser tests use (GATEHOUSE_IDP), and a Keycloak for them unless one answers.

import { answers } from '../processes';

import { startKeycloak } from './start';

/**
 * The identity provider the browser suites run against: `dev` (the embedded provider, the default) or
 * `keycloak`, from GATEHOUSE_IDP (`npm run test:keycloak` sets it).
 */
export function chosenProvider(env: NodeJS.ProcessEnv = process.env): 'dev' | 'keycloak' {
  const value = env.GATEHOUSE_IDP || 'dev';
  if (value !== 'dev' && value !== 'keycloak')
    throw new Error(`GATEHOUSE_IDP is "${value}"; set it to "dev" (the embedded provider, the default) or "keycloak", or unset it.`);
  return value;
}

/**
 * Keycloak on :8080 for a suite that runs on its own (`GATEHOUSE_IDP=keycloak npx playwright test …`): the one
 * already answering (`npm run test:keycloak` starts one for all its suites), else one started now, with its log
 * in .keycloak/keycloak.log. `stop` stops only what was started here.
 */
export async function keycloakUnlessRunning(): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = 'http://localhost:8080';
  if (await answers(`${url}/realms/gatehouse/.well-known/openid-configuration`)) return { url, stop: async () => {} };
  const keycloak = await startKeycloak();
  return { url: keycloak.url, stop: keycloak.stop };
}
