import { chosenProvider, keycloakUnlessRunning } from '@gatehouse/testkit/keycloak';

/**
 * The identity provider the browser suites run against: the embedded dev provider (default, `npm test`), or a
 * real Keycloak 26 with `GATEHOUSE_IDP=keycloak` (`npm run test:keycloak`, decisions/0034). The specs are the
 * same; a spec that tests a feature only the dev provider has says so with `test.skip(onKeycloak, '<why>')`.
 */
export const PROVIDER = chosenProvider();
export const onKeycloak = PROVIDER === 'keycloak';

/** Keycloak on :8080: the one already answering, else one started now; resolves to what stops the latter. */
export async function startKeycloakUnlessRunning(): Promise<() => Promise<void>> {
  return (await keycloakUnlessRunning()).stop;
}
