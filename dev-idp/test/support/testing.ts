// What another package's tests use of dev-idp's test helpers (`@gatehouse/dev-idp/testing`): a browser that fills the
// provider's forms over plain HTTP, and keycloak-js's authorization request.
export { FormBrowser } from './FormBrowser.js';
export { authorizationUrl } from './codeFlow.js';
