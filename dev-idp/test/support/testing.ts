// What another package's tests use of dev-idp's test helpers (`@gatehouse/dev-idp/testing`): a browser that fills the
// provider's forms over plain HTTP, keycloak-js's authorization request, and DPoP keys and proofs (RFC 9449).
export { FormBrowser } from './FormBrowser.js';
export { authorizationUrl } from './codeFlow.js';
export { dpopProof, newDpopKey, type DpopKey } from './dpopProof.js';
