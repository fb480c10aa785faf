#!/usr/bin/env node
// Renders Gatehouse's nginx configuration from the templates beside this file.
//
//   node deploy/nginx/render.mjs [--production] <deployment.json> <out-dir>
//
// --production refuses plain-http addresses, per-tab overrides and CSP additions that weaken the policy
// (productionProblems). Every value written into nginx syntax is checked against its grammar, in every render.
// writes <out-dir>/gatehouse-http.conf, shell.conf and remote-<name>.conf, ready to be included in
// the `http { }` block of an nginx.conf. `npm run preview` (scripts/preview.mjs) uses the same
// functions, so what the preview serves is what a deployment serves.
//
// The shell's Content-Security-Policy is computed from the shell's runtime config.json (identity
// provider + the remotes' manifest URLs), so it cannot drift from the origins the shell really loads
// code from. Change config.json → render again → reload nginx.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve, join, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originOf, remoteCsp, securityHeaders, shellCsp } from '@gatehouse/config';
import { parse as parseHost } from 'tldts';

export const TEMPLATE_DIR = dirname(fileURLToPath(import.meta.url));

/** @typedef {import('@gatehouse/config').ShellConfig} ShellConfig */
/** @typedef {import('@gatehouse/config').CspAdditions} CspAdditions */

/**
 * One nginx server block: the shell's or a remote's.
 *
 * @typedef {object} Server
 * @property {string | number | Array<string | number>} listen one `listen` value or several (IPv4 and IPv6)
 * @property {string} serverName
 * @property {string} root the build folder it serves
 * @property {string[]} [directives] more nginx directives for the server block (ssl_certificate, access_log…)
 */

/**
 * Everything one deployment's nginx files are rendered from.
 *
 * @typedef {object} Deployment
 * @property {ShellConfig} config the shell's config.json (parsed)
 * @property {string} configFile absolute path served as the shell's /config.json
 * @property {Server & { origin: string, identityProviderProxy?: IdentityProviderProxy }} shell
 *   `identityProviderProxy`: the identity provider proxied under a path of the shell's origin
 * @property {Array<Server & { name: string }>} [remotes] the remotes this nginx serves (remotes hosted
 *   elsewhere still appear in the CSP via config.json)
 * @property {string[]} [extraShellOrigins] more origins allowed to load the remotes (CORS)
 * @property {CspAdditions} [csp] extra CSP sources, see shellCsp
 * @property {Omit<Server, 'root'> & IdentityProviderProxy} [identityProvider] the identity provider on a host
 *   of its own behind this nginx (TLS ends here): `listen`, `serverName`, `directives`, `upstream`
 */

/**
 * The identity provider behind this nginx (decisions/0032): where it really listens, and under which path
 * of the public origin.
 *
 * @typedef {object} IdentityProviderProxy
 * @property {string} upstream proxy_pass target, e.g. "http://127.0.0.1:8080" (no path: the prefix is passed on)
 * @property {string} [path] the path prefix under the shell's origin, e.g. "/auth" (identityProvider: always "/")
 * @property {string[]} [proxyDirectives] more directives inside the proxy location
 */

/**
 * Replaces `${NAME}` placeholders (upper-case names only, so nginx's own `$uri`/`${uri}` stay
 * untouched). Unlike envsubst, a placeholder without a value is an error, not an empty string: an
 * empty `root` or `listen` would give a config that starts but serves the wrong thing. Only names
 * ending in `_EXTRA` (optional directives) may be empty.
 *
 * @param {string} text the template
 * @param {Readonly<Record<string, string | number | null | undefined>>} vars
 * @param {string} [templateName] names the template in the error
 * @returns {string}
 */
export function renderTemplate(text, vars, templateName = 'template') {
  /** @type {Set<string>} */
  const missing = new Set();
  const out = text.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (/** @type {string} */ _, /** @type {string} */ name) => {
    const value = vars[name];
    if (value === undefined || value === null || (value === '' && !name.endsWith('_EXTRA'))) {
      missing.add(name);
      return '';
    }
    return String(value);
  });
  if (missing.size > 0) {
    throw new Error(`${templateName}: no value for ${[...missing].join(', ')}. Pass it in the deployment description.`);
  }
  return out;
}

/** nginx `add_header … always;` lines for headers. @param {Readonly<Record<string, string>>} headers */
function addHeaderLines(headers) {
  return Object.entries(headers)
    .map(([name, value]) => `    add_header ${name} "${nginxString(value, name)}" always;\n`)
    .join('');
}

/** Whether a server block is served over HTTPS. @param {Server} server @param {string} [origin] */
function servesHttps(server, origin) {
  if (origin?.startsWith('https:')) return true;
  return (Array.isArray(server.listen) ? server.listen : [server.listen]).some((l) => /\bssl\b/.test(String(l)));
}

/**
 * Why a CSP source from a deployment's "csp" would weaken the policy, or null: `'unsafe-…'` keywords (inline
 * code, eval, hashes that allow event handlers), `*` (every origin), a scheme alone (`https:`, `data:`, `blob:`:
 * every address of that scheme), a host made of wildcards only, and the near-wildcards (wildcardProblem).
 *
 * @param {unknown} source @returns {string | null}
 */
export function weakCspSource(source) {
  if (typeof source !== 'string') return null; // the schema reports it
  const value = source.toLowerCase();
  if (/^'[a-z-]*unsafe[a-z-]*'$/.test(value)) return `${source} allows code the policy exists to refuse`;
  if (value === '*' || /^[a-z][a-z0-9+.-]*:\/\/\*(:[0-9*]+)?\/?$/.test(value)) return 'it allows every origin';
  if (/^[a-z][a-z0-9+.-]*:$/.test(value)) return `it allows every address of the scheme ${source}`;
  return wildcardProblem(value);
}

/** A host source: optional scheme, host, optional port, optional path (CSP's host-source grammar, loosely). */
const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/:]*)(?::([0-9]+|\*))?(\/.*)?$/;

/**
 * Why a source with a wildcard host is (nearly) every origin, or null: a port alone (`*:443`); a wildcard that is
 * not the leftmost label (`cdn*.example.com`); a wildcard directly under a public suffix (`*.com`, `*.co.uk`, and
 * the public suffix list's private section, `*.github.io`: every site registered there; the list is tldts's, not
 * one of our own); a wildcard without a scheme (`*.example.com`: the page's scheme and every one it upgrades to,
 * `ws:` included). A wildcard port on a named host (`https://cdn.example.com:*`) is that host's.
 *
 * @param {string} value the source, lower-case @returns {string | null}
 */
function wildcardProblem(value) {
  const match = HOST_SOURCE.exec(value);
  const [, scheme, host = '', port] = match ?? [];
  if (!host.includes('*')) return null;
  if (host === '*') return `it allows every host on port ${port ?? 'of the page'}`;
  const under = host.slice(2);
  if (!host.startsWith('*.') || under.includes('*'))
    return 'a wildcard stands only for the leftmost labels of a host ("https://*.cdn.example.com"), never inside a label';
  const parsed = parseHost(under, { allowPrivateDomains: true });
  if (parsed.isIp) return `a wildcard over the address ${under} is not a host name`;
  if (parsed.domain === null || parsed.publicSuffix === under)
    return (
      `its wildcard is directly under the public suffix "${under}" (the public suffix list), so it allows every site ` +
      `registered there, not only yours; name your own origins, or a wildcard under a domain you own ("https://*.yours.${under}")`
    );
  if (scheme === undefined) return `a wildcard without a scheme; write its scheme, e.g. "https://${value}"`;
  return null;
}

/**
 * What a production render refuses (`--production`): plain-http addresses for the identity provider, the
 * remotes, the APIs and the shell, per-tab overrides (a development aid that lets a tab run code from
 * other origins), and CSP additions that weaken the policy (weakCspSource).
 *
 * @param {Deployment} deployment @returns {string[]} one sentence per problem
 */
export function productionProblems(deployment) {
  const { config, shell } = deployment;
  /** @type {string[]} */
  const problems = [];
  /** @param {unknown} url @param {string} what */
  const https = (url, what) => {
    if (typeof url === 'string' && url.startsWith('http:')) problems.push(`${what} is "${url}": production needs https.`);
  };
  https(config?.identityProvider?.url, 'config.json identityProvider.url');
  for (const origin of config?.identityProvider?.trustedOrigins ?? []) https(origin, 'config.json identityProvider.trustedOrigins');
  for (const remote of config?.remotes ?? []) {
    https(remote?.manifest, `config.json remote "${remote?.name}" manifest`);
    https(remote?.api?.url, `config.json remote "${remote?.name}" api.url`);
  }
  https(shell?.origin, 'shell.origin');
  for (const origin of deployment.extraShellOrigins ?? []) https(origin, 'extraShellOrigins');
  if (config?.overrides !== undefined) {
    problems.push('config.json has "overrides": per-tab overrides load code from other origins; leave them out in production.');
  }
  for (const [directive, sources] of Object.entries(deployment.csp ?? {})) {
    for (const source of Array.isArray(sources) ? sources : []) {
      const weakness = weakCspSource(source);
      if (weakness)
        problems.push(
          `csp.${directive} has ${JSON.stringify(source)}: ${weakness}; name the origins instead, e.g. "https://cdn.example.com".`,
        );
    }
  }
  return problems;
}

/**
 * One `listen` value as nginx's grammar has it: a port, `address:port`, `[IPv6]:port` or `unix:/path`, then
 * parameters (`ssl`, `http2`, `default_server`, `backlog=511` …). Nothing else: a `;`, `{` or `#` would end the
 * directive and start a deployment's own nginx configuration.
 */
const LISTEN = /^(\d{1,5}|(\*|[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?|unix:\/[A-Za-z0-9._/-]+)( [a-z_0-9]+(=[A-Za-z0-9._:/-]+)?)*$/;

/**
 * `listen` accepts one value or a list (e.g. IPv4 and IPv6): one `listen` line each.
 *
 * @param {Server['listen']} listen @param {string} what names the server block in the error
 */
function listenLines(listen, what) {
  const values = (Array.isArray(listen) ? listen : [listen]).map((v) => (typeof v === 'number' ? String(v) : v)).filter(Boolean);
  if (values.length === 0) throw new Error(`${what}: "listen" is required (e.g. 4000 or "443 ssl").`);
  for (const value of values) {
    if (typeof value !== 'string' || !LISTEN.test(value)) {
      throw new Error(
        `${what}: "listen" value ${JSON.stringify(value)} is not an nginx listen address. Use a port, address:port, [IPv6]:port or unix:/path, then parameters such as "ssl", e.g. 443, "443 ssl" or "[::]:443 ssl".`,
      );
    }
  }
  return values.join(';\n    listen ');
}

/**
 * One `server_name`: one or more host names separated by spaces, each letters, digits, `-` and `.`, with an
 * optional leading `*.` or trailing `.*` (nginx's wildcards), or `_`. Nothing else reaches the configuration.
 *
 * @param {unknown} value @param {string} what names the field in the error @returns {string}
 */
function serverName(value, what) {
  const name = required(value, what);
  const host = /^(_|(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(\.\*)?)$/;
  if (!name.split(' ').every((part) => host.test(part))) {
    throw new Error(
      `${what} ${JSON.stringify(name)} is not a list of host names. Use letters, digits, "-" and "." (a leading "*." or trailing ".*" as nginx's wildcards), names separated by one space, e.g. "app.example.com".`,
    );
  }
  return name;
}

/**
 * An absolute path for `root` or `alias`, as a quoted nginx string: no quotes, backslashes, `$` (a variable in
 * nginx) or control characters.
 *
 * @param {unknown} value @param {string} what names the field in the error @returns {string}
 */
function nginxPath(value, what) {
  const path = required(value, what);
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || /["'\\$;{}#\u0000-\u001f\u007f]/.test(path)) {
    throw new Error(
      `${what} ${JSON.stringify(path)} is not an absolute path nginx can take as it is. Use a path starting with "/", without quotes, backslashes, "$", ";", "{", "}", "#" or control characters, e.g. "/srv/gatehouse/shell".`,
    );
  }
  return `"${path}"`;
}

/**
 * Optional directives for one server block (TLS certificates, logs…), one per line.
 *
 * @param {unknown} directives from the deployment description, checked here @param {string} what names the server block
 */
function extraLines(directives, what) {
  if (directives === undefined) return '';
  if (!Array.isArray(directives) || !directives.every((d) => typeof d === 'string')) {
    throw new Error(`${what}: "directives" must be an array of nginx directives, e.g. ["ssl_certificate /etc/ssl/app.pem;"].`);
  }
  return directives
    .map((d, i) => {
      const directive = d.trim().replace(/;$/, '');
      if (directive === '' || /[;{}#\n\r]/.test(directive)) {
        throw new Error(
          `${what}: "directives"[${i}] ${JSON.stringify(d)} is not one nginx directive. Give one simple directive per entry, without ";" inside, braces or "#", e.g. "ssl_certificate /etc/ssl/app.pem".`,
        );
      }
      return `    ${directive};\n`;
    })
    .join('');
}

/** @param {unknown} value @param {string} what names the field in the error @returns {string} */
function required(value, what) {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`${what} is required.`);
  return value;
}

/** A value for a quoted nginx string. @param {string} value @param {string} what names it in the error */
function nginxString(value, what) {
  if (/["\\\n$]/.test(value)) throw new Error(`${what} must not contain quotes, backslashes, $ or newlines: ${value}`);
  return value;
}

/**
 * The proxy location of the identity provider (identity-provider-location.conf.template) at `path`.
 *
 * @param {IdentityProviderProxy} proxy @param {string} path @param {string} what names the field in errors
 */
function identityProviderLocation(proxy, path, what) {
  const upstream = required(proxy?.upstream, `${what}.upstream`);
  if (!/^https?:\/\/([A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(upstream)) {
    throw new Error(
      `${what}.upstream: "${upstream}" is not an http(s) address without a path. Use where the provider listens, e.g. "http://127.0.0.1:8080".`,
    );
  }
  if (!/^\/([A-Za-z0-9._~-]+\/?)*$/.test(path) || path.includes('//')) {
    throw new Error(`${what}.path: "${path}" is not a path prefix. Use e.g. "/auth" (the path Keycloak's --http-relative-path names).`);
  }
  const prefix = path.endsWith('/') ? path : `${path}/`;
  return renderTemplate(
    readFileSync(join(TEMPLATE_DIR, 'identity-provider-location.conf.template'), 'utf8'),
    {
      IDP_PROXY_PATH: path,
      // used after ^~: prefix matches that win over the regex locations (a provider page ending in .html is not a shell file).
      IDP_PROXY_PREFIX: prefix,
      IDP_PROXY_PREFIX_REGEX: prefix.replaceAll('.', '\\.'),
      IDP_PROXY_UPSTREAM: upstream,
      IDP_PROXY_EXTRA: extraLines(proxy.proxyDirectives, `${what}.proxyDirectives`).replace(/^ {4}/gm, '        '),
    },
    'identity-provider-location.conf.template',
  );
}

/**
 * Renders every Gatehouse nginx file for one deployment.
 *
 * @param {Deployment} deployment
 * @param {{ production?: boolean }} [options] `production`: refuse what productionProblems lists
 * @returns {Record<string, string>} file name → content
 */
export function renderDeployment(deployment, { production = false } = {}) {
  const { config, configFile, shell, remotes = [], extraShellOrigins = [], csp = {}, identityProvider } = deployment;
  const refused = production ? productionProblems(deployment) : [];
  if (refused.length > 0) throw new Error(`not a production deployment (--production):\n  ${refused.join('\n  ')}`);
  const read = (/** @type {string} */ name) => readFileSync(join(TEMPLATE_DIR, name), 'utf8');
  const shellOrigins = [
    ...new Set([originOf(shell.origin, 'shell.origin'), ...extraShellOrigins.map((o) => originOf(o, 'extraShellOrigins'))]),
  ];
  /** @type {Record<string, string>} */
  const files = {};
  files['gatehouse-http.conf'] = renderTemplate(
    read('gatehouse-http.conf.template'),
    {
      CORS_ALLOWED_ORIGINS: shellOrigins.map((o) => `    "${nginxString(o, 'origin')}" $http_origin;`).join('\n'),
    },
    'gatehouse-http.conf.template',
  );
  files['shell.conf'] = renderTemplate(
    read('shell.conf.template'),
    {
      SHELL_LISTEN: listenLines(shell.listen, 'shell'),
      SHELL_SERVER_NAME: serverName(shell.serverName, 'shell.serverName'),
      SHELL_ROOT: nginxPath(shell.root, 'shell.root'),
      SHELL_EXTRA: extraLines(shell.directives, 'shell'),
      SHELL_CONFIG_FILE: nginxPath(configFile, 'servedConfigFile (or configFile)'),
      SHELL_SECURITY_HEADERS: addHeaderLines(securityHeaders(shellCsp(config, csp), { https: servesHttps(shell, shell.origin) })),
      SHELL_IDP_PROXY_EXTRA: shell.identityProviderProxy
        ? identityProviderLocation(
            shell.identityProviderProxy,
            required(shell.identityProviderProxy.path, 'shell.identityProviderProxy.path'),
            'shell.identityProviderProxy',
          )
        : '',
    },
    'shell.conf.template',
  );
  for (const remote of remotes) {
    if (typeof remote.name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(remote.name))
      throw new Error(`remote name "${remote.name}": use letters, digits, - and _ only.`);
    files[`remote-${remote.name}.conf`] = renderTemplate(
      read('remote.conf.template'),
      {
        REMOTE_NAME: remote.name,
        REMOTE_LISTEN: listenLines(remote.listen, `remote ${remote.name}`),
        REMOTE_SERVER_NAME: serverName(remote.serverName, `remote ${remote.name} serverName`),
        REMOTE_ROOT: nginxPath(remote.root, `remote ${remote.name} root`),
        REMOTE_EXTRA: extraLines(remote.directives, `remote ${remote.name}`),
        REMOTE_SECURITY_HEADERS: addHeaderLines(
          securityHeaders(remoteCsp(config, remote.name), { https: servesHttps(remote, shell.origin) }),
        ),
      },
      'remote.conf.template',
    );
  }
  if (identityProvider) {
    files['identity-provider.conf'] = renderTemplate(
      read('identity-provider.conf.template'),
      {
        IDP_LISTEN: listenLines(identityProvider.listen, 'identityProvider'),
        IDP_SERVER_NAME: serverName(identityProvider.serverName, 'identityProvider.serverName'),
        IDP_EXTRA: extraLines(identityProvider.directives, 'identityProvider'),
        IDP_LOCATION: identityProviderLocation(identityProvider, '/', 'identityProvider'),
      },
      'identity-provider.conf.template',
    );
  }
  return files;
}

/** Writes rendered files into a folder (created if needed). @param {string} dir @param {Readonly<Record<string, string>>} files */
export function writeFiles(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}

/**
 * A text file that must be UTF-8: invalid bytes are an error that names the file, never a silent "\uFFFD" in a
 * name or a URL.
 *
 * @param {string} file @returns {string}
 */
export function readUtf8(file) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    if (error instanceof TypeError)
      throw new Error(`${file} is not valid UTF-8: save it as UTF-8 (its strings must not carry other encodings).`, { cause: error });
    throw error;
  }
}

/**
 * Reads a deployment description (see deploy/nginx/deployment.example.json): paths in it are
 * relative to the description file.
 *
 * @param {string} file
 * @returns {Deployment}
 */
export function loadDeployment(file) {
  const base = dirname(resolve(file));
  const abs = (/** @type {string} */ p) => (isAbsolute(p) ? p : resolve(base, p));
  const description = JSON.parse(readUtf8(file));
  const configFile = abs(description.configFile);
  const config = JSON.parse(readUtf8(configFile));
  return {
    ...description,
    config,
    configFile: description.servedConfigFile ?? configFile,
    shell: { ...description.shell, root: abs(description.shell.root) },
    remotes: (description.remotes ?? []).map((/** @type {Server & { name: string }} */ r) => ({ ...r, root: abs(r.root) })),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const production = args.includes('--production');
  const [file, outDir] = args.filter((a) => a !== '--production');
  if (!file || !outDir) {
    console.error('usage: node deploy/nginx/render.mjs [--production] <deployment.json> <out-dir>');
    process.exit(2);
  }
  try {
    const files = renderDeployment(loadDeployment(file), { production });
    writeFiles(outDir, files);
    console.log(
      `wrote ${Object.keys(files)
        .map((f) => join(outDir, f))
        .join(', ')}`,
    );
  } catch (error) {
    console.error(`render.mjs: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
