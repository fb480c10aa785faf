/**
 * The page keycloak-js loads in a hidden frame for silent check-sso: it hands the callback address
 * (with the authorization code in its fragment) to the app, on the app's own origin only. Serve it
 * at `silentCheckSsoRedirectUri` (default `/silent-check-sso.html`): copy
 * `@gatehouse/auth-lib/silent-check-sso.html` into your public folder, or serve this string.
 * Kept equal to that file by a unit test.
 *
 * @example
 * // webpack: new CopyPlugin({ patterns: [require.resolve('@gatehouse/auth-lib/silent-check-sso.html')] })
 * // a dev server: app.get('/silent-check-sso.html', (_, res) => res.type('html').send(SILENT_CHECK_SSO_HTML));
 */
export const SILENT_CHECK_SSO_HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8"><title>Silent sign-in check</title></head>
  <body>
    <script>
      parent.postMessage(location.href, location.origin);
    </script>
  </body>
</html>
`;
