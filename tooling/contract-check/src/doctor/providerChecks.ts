import type { ReadOptions, ReadResponse } from '../net/readUrl';
import { DOCTOR_CODES, type Problem } from './problems';
import { siteOf } from './site';

/** What the doctor reads the network with (readUrl with the CLI's limits, CA and names). */
export type Reader = (url: string, options?: ReadOptions) => Promise<ReadResponse>;

export interface ProviderConfig {
  readonly url: string;
  readonly realm: string;
  readonly clientId: string;
}

export interface Findings {
  readonly problems: Problem[];
  readonly passed: string[];
}

/** A PKCE challenge the doctor sends so that a client requiring S256 answers about the redirect URI, not PKCE. */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * The identity provider as the shell's visitors meet it: same site as the shell, discovery and its issuer, and
 * (as far as the provider tells) the shell's origin among the client's web origins and redirect URIs.
 */
export async function checkProvider(read: Reader, shell: URL, idp: ProviderConfig, out: Findings): Promise<void> {
  const { problems, passed } = out;
  const realmUrl = `${idp.url.replace(/\/+$/, '')}/realms/${encodeURIComponent(idp.realm)}`;
  const idpOrigin = new URL(idp.url).origin;
  if (idpOrigin.startsWith('http:')) {
    problems.push({
      code: DOCTOR_CODES.http,
      what: `config.json reaches the identity provider at ${idpOrigin}, plain http.`,
      breaks: 'Passwords and tokens travel unencrypted; an https shell cannot call it (mixed content), so nobody signs in.',
      fix: 'Serve the provider over https and put its https URL in identityProvider.url.',
    });
  }
  if (siteOf(idpOrigin) !== siteOf(shell.origin)) {
    problems.push({
      code: DOCTOR_CODES.site,
      what: `The identity provider (${idpOrigin}) is on another site than the shell (${shell.origin}).`,
      breaks:
        "Browsers that block third-party cookies (Safari, Firefox's strict mode, Chrome's option) do not send the provider's session cookie to its login-status frame: keycloak-js turns the frame off, silent sign-in becomes a full-page redirect, and a sign-out in another tab is not noticed.",
      fix: `Put the provider on the shell's site (e.g. https://sso.${new URL(siteOf(shell.origin)).hostname}), or proxy it under the shell's origin (deploy/nginx: shell.identityProviderProxy).`,
    });
  } else passed.push(`The identity provider ${idpOrigin} is on the shell's site (${siteOf(shell.origin)}).`);

  const discoveryUrl = `${realmUrl}/.well-known/openid-configuration`;
  const discovery = await read(discoveryUrl, { headers: { accept: 'application/json' } });
  let config: Record<string, unknown> | undefined;
  try {
    config = discovery.status === 200 ? (JSON.parse(discovery.body) as Record<string, unknown>) : undefined;
  } catch {
    config = undefined;
  }
  if (!config) {
    problems.push({
      code: DOCTOR_CODES.unreadable,
      what: `The provider's discovery ${discoveryUrl} answered HTTP ${discovery.status}${discovery.status === 200 ? ' but not with JSON' : ''}.`,
      breaks: 'Nobody can sign in: keycloak-js cannot reach the realm.',
      fix: 'Check identityProvider.url and .realm in config.json, and that the provider (behind its proxy) answers at that address.',
    });
    return;
  }
  if (config.issuer !== realmUrl) {
    problems.push({
      code: DOCTOR_CODES.issuer,
      what: `The provider calls itself ${String(config.issuer)}, but config.json reaches it at ${realmUrl}.`,
      breaks:
        "Tokens carry the other issuer: APIs that check it refuse them, and the provider's redirects and forms lead to an address visitors cannot reach.",
      fix: 'Behind a proxy, start Keycloak (or the dev IdP) with --hostname <the public URL> and --proxy-headers xforwarded, and have the proxy send X-Forwarded-Proto/Host/Port.',
    });
  } else passed.push(`The provider's issuer is ${realmUrl}.`);
  const plain = ['authorization_endpoint', 'token_endpoint', 'check_session_iframe'].filter((key) =>
    String(config[key]).startsWith('http:'),
  );
  if (plain.length > 0 && shell.protocol === 'https:' && !idpOrigin.startsWith('http:')) {
    problems.push({
      code: DOCTOR_CODES.http,
      what: `The provider advertises ${plain.join(', ')} over plain http.`,
      breaks: 'The https shell cannot call them (mixed content) and tokens would travel unencrypted.',
      fix: 'Serve the provider over https; behind a TLS proxy set --proxy-headers xforwarded (or --hostname https://…).',
    });
  }

  const init = await read(
    `${realmUrl}/protocol/openid-connect/login-status-iframe.html/init?${new URLSearchParams({ client_id: idp.clientId, origin: shell.origin })}`,
  );
  if (init.status === 403) {
    problems.push({
      code: DOCTOR_CODES.webOrigin,
      what: `Client ${idp.clientId} does not list the shell's origin ${shell.origin} among its web origins (the login-status frame refuses it).`,
      breaks:
        "The token endpoint's CORS refuses the shell (no sign-in completes) and the login-status frame answers `error`, which signs visitors out.",
      fix: `Add ${shell.origin} (or "+") to the web origins of client ${idp.clientId}.`,
    });
  } else if (init.status === 204) passed.push(`Client ${idp.clientId} accepts the web origin ${shell.origin}.`);

  const redirectUri = new URL('/', shell).href;
  // keycloak-js builds its endpoints from url and realm, not from discovery: so does the doctor.
  const authorization = await read(
    `${realmUrl}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: idp.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'fragment',
      scope: 'openid',
      prompt: 'none',
      state: 'gatehouse-doctor',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    })}`,
    { redirect: 'manual' },
  );
  const location = authorization.headers.location ?? '';
  if (authorization.status >= 300 && authorization.status < 400 && location.startsWith(redirectUri)) {
    passed.push(`Client ${idp.clientId} accepts the redirect URI ${redirectUri}.`);
  } else if (authorization.status === 400 || /redirect_uri/i.test(authorization.body)) {
    problems.push({
      code: DOCTOR_CODES.redirectUri,
      what: `Client ${idp.clientId} refuses the redirect URI ${redirectUri} (the provider answered HTTP ${authorization.status}).`,
      breaks: 'Signing in ends on the provider\'s "Invalid parameter: redirect_uri" page.',
      fix: `Add ${shell.origin}/* to the valid redirect URIs of client ${idp.clientId}.`,
    });
  }
}
