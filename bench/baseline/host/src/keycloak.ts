import Keycloak from 'keycloak-js';

// The provider's address is fixed at build time (the bench's http://localhost:8180 unless IDP_URL says otherwise:
// bench/lib/crossSite.mjs builds it for the HTTPS topologies), as a team writing it from the docs would.
export const keycloak = new Keycloak({ url: IDP_URL, realm: 'gatehouse', clientId: 'gatehouse-shell' });
