/**
 * The page keycloak-js loads in a hidden frame for silent check-sso: it hands the callback address
 * (with the authorization code in its fragment) to the app, on the app's own origin only. The script is
 * a file of its own so the page works under a Content-Security-Policy without `unsafe-inline`.
 * Serve both at the app's root (`silentCheckSsoRedirectUri` defaults to `/silent-check-sso.html`): copy
 * the folder `@gatehouse/auth-lib/public/` into your public folder, or serve these strings.
 * Kept equal to the shipped files by a unit test.
 *
 * @example
 * // a dev server:
 * app.get('/silent-check-sso.html', (_, res) => res.type('html').send(SILENT_CHECK_SSO_HTML));
 * app.get('/silent-check-sso.js', (_, res) => res.type('js').send(SILENT_CHECK_SSO_SCRIPT));
 */
export const SILENT_CHECK_SSO_HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8"><title>Silent sign-in check</title></head>
  <body>
    <script src="silent-check-sso.js"></script>
  </body>
</html>
`;

/** The script `SILENT_CHECK_SSO_HTML` loads (`silent-check-sso.js`, beside the page). */
export const SILENT_CHECK_SSO_SCRIPT = 'parent.postMessage(location.href, location.origin);\n';
