import waitForSystem from '../../support/globalSetup';
import { keycloakVersion } from './keycloak';

/** Waits for the system, then makes sure the provider on :8080 is Keycloak 26 and not the dev provider. */
export default async function globalSetup(): Promise<void> {
  await waitForSystem();
  const version = await keycloakVersion().catch(() => undefined);
  if (!version?.startsWith('26.')) {
    throw new Error(
      `the provider on http://localhost:8080 is not Keycloak 26 (server info: ${version ?? 'none'}). ` +
        'Start Keycloak with the demo realm imported (deploy/keycloak/README.md) before `npm start`, then run these specs again.',
    );
  }
}
