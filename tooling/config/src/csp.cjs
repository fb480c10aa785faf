// The Content-Security-Policy and the security headers of every Gatehouse page, derived from the shell's
// config.json: one place for production's nginx (deploy/nginx/render.mjs), the dev servers (tooling/federation's
// defineApp, the shell's webpack config) and the doctor (tooling/contract-check). Plain CommonJS, so Node runs
// it as it is on a deployment host and jest loads it without a transform.

const { describeSchemaErrors, validateCspAdditions, validateShellConfig } = require('./validate.cjs');

/**
 * A shell config.json as parsed: the keys the scripts read (the format is config.schema.json; the shell's
 * own types describe a config that passed it). It comes from a file, so the
 * functions below check what they read before they rely on it.
 *
 * @typedef {object} ShellConfig
 * @property {{ url: string, realm: string, clientId: string, trustedOrigins?: string[] }} identityProvider
 * @property {Array<{ name: string, manifest: string, route: string, title: string, api?: { url: string, audience: string, scope: string } }>} remotes
 * @property {{ allowedOrigins: string[] }} [overrides]
 * @property {{ url: string }} [sessionEvents]
 */

/**
 * Sources for the shell's CSP beyond those config.json names (a deployment description's "csp").
 *
 * @typedef {{ connectSrc?: string[], styleSrc?: string[], imgSrc?: string[] }} CspAdditions
 */

/** @param {string} url @param {string} where names the field in the error */
function originOf(url, where) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${where}: "${url}" is not an absolute URL. Use e.g. "https://profile.example.com/mf-manifest.json".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${where}: "${url}" must be an http(s) URL.`);
  }
  return parsed.origin;
}

/**
 * Lists the remotes of a shell config.json (format: shell/README.md): `[{ name, manifestUrl, origin, apiOrigin }]`.
 * `origin` is null for a manifest given as a path on the shell's own origin ("/remotes/x/mf-manifest.json"),
 * which 'self' already covers; `apiOrigin` is the origin of the remote's `api.url`, or null without one.
 *
 * @param {ShellConfig} config
 * @returns {Array<{ name: string, manifestUrl: string, origin: string | null, apiOrigin: string | null }>}
 */
function remotesOf(config) {
  const registry = config?.remotes;
  if (!Array.isArray(registry)) {
    throw new Error('config.json: "remotes" must be an array; cannot derive the remotes\' origins.');
  }
  return registry.map((remote, i) => {
    const name = remote?.name ?? `remotes[${i}]`;
    const manifestUrl = remote?.manifest;
    if (typeof manifestUrl !== 'string') {
      throw new Error(`config.json: remote "${name}" has no "manifest" URL.`);
    }
    const origin =
      manifestUrl.startsWith('/') && !manifestUrl.startsWith('//') ? null : originOf(manifestUrl, `config.json remote "${name}"`);
    // the remote's own API (its registry entry's `api`, decisions/0054): the page calls it with the remote's token
    const apiOrigin = typeof remote?.api?.url === 'string' ? originOf(remote.api.url, `config.json remote "${name}" api.url`) : null;
    return { name, manifestUrl, origin, apiOrigin };
  });
}

/**
 * `overrides.allowedOrigins` of config.json as CSP sources. They may hold a port wildcard
 * (`http://localhost:*`), which CSP understands as it is; anything else that is not a bare origin is refused.
 *
 * @param {ShellConfig} config
 * @returns {string[]}
 */
function overrideOriginsOf(config) {
  const allowed = config?.overrides?.allowedOrigins ?? [];
  if (!Array.isArray(allowed)) throw new Error('config.json: "overrides.allowedOrigins" must be an array of origins.');
  return allowed.map((origin, i) => {
    if (typeof origin !== 'string' || !/^https?:\/\/[a-z0-9.-]+(:(\d+|\*))?$/i.test(origin)) {
      throw new Error(
        `config.json overrides.allowedOrigins[${i}]: "${origin}" is not an origin. Use e.g. "http://localhost:*" or "https://preview.example.com".`,
      );
    }
    return origin;
  });
}

/** The identity provider's origin, from `identityProvider.url`. @param {ShellConfig} config */
function identityProviderOriginOf(config) {
  const url = config?.identityProvider?.url;
  if (typeof url !== 'string') {
    throw new Error('config.json: "identityProvider.url" is missing; cannot derive the CSP.');
  }
  return originOf(url, 'config.json identityProvider.url');
}

/**
 * Throws unless `config` passes config.schema.json and `extra` the schema's CSP additions, listing every
 * problem: nothing derived from a config the shell itself would refuse ends up in nginx's configuration.
 *
 * @param {unknown} config a shell config.json (parsed)
 * @param {unknown} [extra] a deployment description's "csp"
 */
function assertValidInput(config, extra = {}) {
  const problems = [
    ...(validateShellConfig(config) ? [] : describeSchemaErrors(validateShellConfig.errors, config).map((p) => `config.json: ${p}`)),
    ...(validateCspAdditions(extra) ? [] : describeSchemaErrors(validateCspAdditions.errors, extra, 'csp.').map((p) => `deployment: ${p}`)),
  ];
  if (problems.length > 0) throw new Error(`the input is invalid (config.schema.json):\n  ${problems.join('\n  ')}`);
}

/**
 * The shell's Content-Security-Policy for a config.json. No 'unsafe-eval', no inline scripts.
 * frame-src/frame-ancestors allow 'self' because keycloak-js's silent check-sso loads the shell's
 * own page in a hidden frame; frame-src allows the identity provider for its login-status frame
 * and third-party-cookie check.
 *
 * @param {ShellConfig} config the shell's config.json
 * @param {CspAdditions} [extra] more sources than config.json names (its identityProvider.trustedOrigins are
 *   already in connect-src)
 * @returns {string}
 */
function shellCsp(config, extra = {}) {
  assertValidInput(config, extra);
  const idp = identityProviderOriginOf(config);
  const remotes = remotesOf(config).map((r) => r.origin);
  // APIs that authFetch may send the token to (trustedOrigins, and each remote's own api): the remotes call them.
  const apis = [
    ...(config.identityProvider.trustedOrigins ?? []).map((o) => originOf(o, 'config.json identityProvider.trustedOrigins')),
    ...remotesOf(config).map((r) => r.apiOrigin),
  ];
  // Origins a tab may load a remote from instead of the registered one (`?remote.<name>=…`), when this
  // environment allows overrides at all: they are code origins like the registered remotes.
  const overrides = overrideOriginsOf(config);
  const code = [remotes, overrides];
  // The session-events service (decisions/0118): the leading tab's stream of the session's end.
  const events = config.sessionEvents ? originOf(config.sessionEvents.url, 'config.json sessionEvents.url') : null;
  /** @param {...(string | null | ReadonlyArray<string | null | ReadonlyArray<string | null>>)} parts */
  const list = (...parts) => [...new Set(parts.flat(2).filter(Boolean))].join(' ');
  const directives = [
    ['default-src', list("'self'")],
    ['script-src', list("'self'", code)],
    ['style-src', list("'self'", code, extra.styleSrc ?? [])],
    ['img-src', list("'self'", 'data:', code, extra.imgSrc ?? [])],
    ['font-src', list("'self'", code)],
    ['connect-src', list("'self'", code, idp, apis, events, extra.connectSrc ?? [])],
    ['frame-src', list("'self'", idp)],
    ['form-action', list("'self'", idp)],
    ['frame-ancestors', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
  ];
  return directives.map(([name, value]) => `${name} ${value}`).join('; ');
}

/**
 * What the shell's dev server adds to the production CSP: the WebSocket of each code origin's dev server (hot
 * reload; CSP's http sources do not cover ws:). Nothing else differs from production.
 *
 * @param {ShellConfig} config @returns {CspAdditions}
 */
function devCspAdditions(config) {
  const code = [...remotesOf(config).map((r) => r.origin), ...overrideOriginsOf(config)].filter((o) => o !== null);
  return { connectSrc: [...new Set(code.map((origin) => origin.replace(/^http/, 'ws')))] };
}

/**
 * The Content-Security-Policy of a remote's own page, its standalone app (decisions/0018): its own code
 * only, the identity provider for sign-in and the login-status frame, its own API (the registry entry's
 * `api`), framed by nobody but itself (keycloak-js's silent check-sso frame).
 *
 * @param {ShellConfig} config
 * @param {string} [name] the remote whose page it is
 * @returns {string}
 */
function remoteCsp(config, name) {
  const idp = identityProviderOriginOf(config);
  const api = name === undefined ? null : (remotesOf(config).find((r) => r.name === name)?.apiOrigin ?? null);
  return [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'"],
    ['img-src', "'self' data:"],
    ['connect-src', `'self' ${idp}${api && api !== idp ? ` ${api}` : ''}`],
    ['frame-src', `'self' ${idp}`],
    ['form-action', `'self' ${idp}`],
    ['frame-ancestors', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
  ]
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/**
 * What a Gatehouse page may use of the browser's powerful features: none of these. One place for nginx and the
 * dev servers (tooling/federation's defineApp takes the same headers), so development cannot hide a hole behind
 * production's headers.
 */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** A year, subdomains included: only sent over HTTPS (a browser ignores it over http). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The security headers of every page (the shell's and each remote's own), given its CSP. `https` adds
 * Strict-Transport-Security: only a deployment that serves this origin over HTTPS may promise it.
 *
 * @param {string} csp @param {{ https?: boolean }} [options] @returns {Record<string, string>}
 */
function securityHeaders(csp, { https = false } = {}) {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    ...(https ? { 'Strict-Transport-Security': HSTS } : {}),
  };
}

/**
 * The CSP every Gatehouse dev server sends on a page that has no CSP of its own (a remote's standalone page in
 * development): no framing by other sites, no `<base>` to another origin, no plugins. The shell sends its full
 * production CSP (shellCsp with devCspAdditions).
 */
const DEV_FLOOR_CSP = "frame-ancestors 'self'; base-uri 'self'; object-src 'none'";

module.exports = {
  originOf,
  remotesOf,
  overrideOriginsOf,
  identityProviderOriginOf,
  assertValidInput,
  shellCsp,
  devCspAdditions,
  remoteCsp,
  PERMISSIONS_POLICY,
  HSTS,
  securityHeaders,
  DEV_FLOOR_CSP,
};
