/**
 * keycloak-js's hidden frames. The login-status frame speaks Keycloak's postMessage dialect:
 * it receives `"<clientId> <sid>"` and answers `unchanged`, `changed` or `error` to the sender.
 * Unlike Keycloak's page it asks the server to compare (`…/status`), so a session ended
 * server-side (admin logout, lifespans) reads as `changed` at the next check. When the server does
 * not answer, it compares the cookie itself, as Keycloak's page always does: a provider that is down
 * does not end the page's session (keycloak-js clears its tokens on anything but `unchanged`).
 *
 * `/init` follows Keycloak 26's page exactly: asked once per frame, at the first message (after a
 * sign-in redirect keycloak-js sends that one only after its first interval, 5 s); 403 → `error`;
 * a network failure → no answer at all (Keycloak's `await fetch` throws and nothing is posted, so
 * keycloak-js's check stays pending and its tokens stay); later messages before a successful init
 * → `error`; a client or origin other than the initialised one → `error`.
 */
export function loginStatusFrame(framePath: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Login status</title></head><body><script>
(function () {
  var init = null;
  // Keycloak's own frame compares the KEYCLOAK_SESSION cookie with the sid locally, so a provider
  // that stops answering after init still reads as "unchanged". When the server cannot be asked,
  // this frame does the same comparison (the cookie holds the sid's SHA-384, base64url).
  function fromCookie(sid) {
    var match = /(?:^|; )KEYCLOAK_SESSION=([^;]*)/.exec(document.cookie);
    var cookie = match ? decodeURIComponent(match[1]) : '';
    if (!cookie) return Promise.resolve(sid ? 'changed' : 'unchanged');
    return crypto.subtle.digest('SHA-384', new TextEncoder().encode(sid)).then(function (digest) {
      var base64 = btoa(String.fromCharCode.apply(null, new Uint8Array(digest)));
      // base64url without a regular expression: backslashes would be eaten by this template literal
      var hashed = base64.split('+').join('-').split('/').join('_').split('=').join('');
      return hashed === cookie ? 'unchanged' : 'changed';
    });
  }
  var initialising = false;
  function initialised(clientId, origin) {
    if (init) return Promise.resolve(init.clientId === clientId && init.origin === origin ? 'ok' : 'error');
    // Keycloak asks /init once per frame (against DoS); any later message before it succeeded gets 'error'.
    if (initialising) return Promise.resolve('error');
    var query = '?client_id=' + encodeURIComponent(clientId) + '&origin=' + encodeURIComponent(origin);
    initialising = true;
    return fetch(${JSON.stringify(framePath)} + '/init' + query, { cache: 'no-store' }).then(function (r) {
      if (r.status !== 204) return 'error';
      init = { clientId: clientId, origin: origin };
      return 'ok';
    }, function () {
      // Keycloak's page does not catch this: no answer is posted. Answering 'error' would make
      // keycloak-js clear the tokens of a session that may well be alive.
      return 'silent';
    });
  }
  window.addEventListener('message', function (event) {
    if (typeof event.data !== 'string' || !event.source) return;
    var space = event.data.indexOf(' ');
    var clientId = space < 0 ? event.data : event.data.slice(0, space);
    var sid = space < 0 ? '' : event.data.slice(space + 1);
    var origin = event.origin;
    var source = event.source;
    function reply(message) { source.postMessage(message, origin); }
    initialised(clientId, origin).then(function (state) {
      if (state === 'silent') return;
      if (state !== 'ok') { reply('error'); return; }
      return fetch(${JSON.stringify(framePath)} + '/status?session_state=' + encodeURIComponent(sid), { cache: 'no-store' })
        .then(function (r) { if (!r.ok) throw new Error('status ' + r.status); return r.text(); })
        .then(reply, function () { return fromCookie(sid).then(reply, function () { reply('error'); }); });
    });
  });
})();
</script></body></html>`;
}

/** Third-party-cookie check, step 1: set test cookies, go to step 2. */
export function thirdPartyCookiesStep1(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head><body><script>
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; Max-Age=60; SameSite=None; Secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=supported; Max-Age=60';
window.location.href = 'step2.html';
</script></body></html>`;
}

/** Third-party-cookie check, step 2: report `supported` / `unsupported` to the parent, clean up. */
export function thirdPartyCookiesStep2(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head><body><script>
var supported = document.cookie.indexOf('KEYCLOAK_3P_COOKIE') !== -1;
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=; Max-Age=0; SameSite=None; Secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=; Max-Age=0';
window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
</script></body></html>`;
}
