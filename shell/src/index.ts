import { requestConfig } from './config/early';

// Requested now, while the shared modules and the shell's code download, rather than one after the
// other once the bootstrap runs: config.json, and keycloak-js (auth-lib's small chunk arrives well before
// React DOM's, and the sign-in check needs keycloak-js first). The bootstrap reports any failure.
const config = requestConfig();
config.catch(() => undefined);
// a tab another tab of this origin will seed fetches the provider's keys early too (auth-lib verifies the seed)
const identityProvider = config
  .then((response) => response.clone().json() as Promise<{ identityProvider?: { url: string; realm: string } }>)
  .then(
    (body) => body.identityProvider,
    () => undefined,
  );
import('@gatehouse/auth-lib').then(
  ({ preloadIdentityClient }) => preloadIdentityClient(identityProvider),
  () => undefined,
);

// The async boundary: shared modules (React, auth-lib, …) are negotiated before the app's code runs.
import('./bootstrap');
