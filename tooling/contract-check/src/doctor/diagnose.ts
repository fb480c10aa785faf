import { describeSchemaErrors, validateShellConfig } from '@gatehouse/config';
import { ReadError } from '../net/readUrl';
import { HASHED_FILE, mustBeImmutable, mustRevalidate } from './caching';
import { cspAllows, parseCsp } from './csp';
import { DOCTOR_CODES, type Diagnosis } from './problems';
import { checkProvider, type Findings, type ProviderConfig, type Reader } from './providerChecks';
import { checkSessionEvents } from './eventsChecks';
import { checkRemote, type RemoteEntry } from './remoteChecks';

interface ShellConfigShape {
  identityProvider: ProviderConfig;
  remotes: RemoteEntry[];
  sessionEvents?: { url: string };
}

/** How many of the shell's own hashed files (from index.html) are looked at. */
const SHELL_FILES = 3;

/**
 * Diagnoses a deployed shell from the outside, as a visitor's browser meets it: its page and config.json,
 * the identity provider, each remote. Throws a ReadError only when the shell's page cannot be read at all.
 */
export async function diagnose(shellAddress: string, read: Reader): Promise<Diagnosis> {
  const shell = new URL(shellAddress.endsWith('/') ? shellAddress : `${shellAddress}/`);
  const findings: Findings = { problems: [], passed: [] };
  const { problems, passed } = findings;
  if (shell.protocol === 'http:') {
    problems.push({
      code: DOCTOR_CODES.http,
      what: `The shell is served over plain http (${shell.origin}).`,
      breaks:
        "Tokens and code travel unencrypted; browsers give no secure context outside localhost, so keycloak-js's PKCE (crypto.subtle) fails and nobody signs in.",
      fix: 'Serve the shell over https (deploy/nginx: listen 443 ssl with a certificate).',
    });
  } else passed.push(`The shell is served over https.`);

  const page = await read(shell.href);
  const cachedPage = mustRevalidate(page, "The shell's index.html");
  if (cachedPage) problems.push(cachedPage);
  else passed.push(`The shell's index.html is revalidated at each load.`);
  const hashed = [...page.body.matchAll(/<(?:script|link)\b[^>]*?\s(?:src|href)="([^"]+)"/g)]
    .map((m) => new URL(m[1] ?? '', shell))
    .filter((url) => url.origin === shell.origin && HASHED_FILE.test(url.pathname));
  for (const url of hashed.slice(0, SHELL_FILES)) {
    const problem = await guarded(findings, () => read(url.href, { method: 'HEAD' }).then(mustBeImmutable));
    if (problem) problems.push(problem);
    else if (problem === undefined) passed.push(`${url.href} is served as immutable.`);
  }

  const configUrl = new URL('config.json', shell).href;
  const config = await guarded(findings, () => readConfig(read, configUrl, findings));
  if (!config) return { shell: shell.href, ...findings };

  await guarded(findings, () => checkProvider(read, shell, config.identityProvider, findings));
  checkCsp(page.headers['content-security-policy'], shell, config, findings);
  for (const remote of config.remotes) await guarded(findings, () => checkRemote(read, shell, remote, findings));
  const { sessionEvents } = config;
  if (sessionEvents) await guarded(findings, () => checkSessionEvents(read, shell, sessionEvents.url, findings));
  return { shell: shell.href, ...findings };
}

async function readConfig(read: Reader, url: string, { problems, passed }: Findings): Promise<ShellConfigShape | undefined> {
  const response = await read(url, { headers: { accept: 'application/json' } });
  let config: unknown;
  try {
    config = response.status === 200 ? JSON.parse(response.body) : undefined;
  } catch {
    config = undefined;
  }
  if (config === undefined) {
    problems.push({
      code: DOCTOR_CODES.config,
      what: `${url} answered HTTP ${response.status}${response.status === 200 ? ', not JSON' : ''}.`,
      breaks: 'The shell shows its configuration error page instead of the application.',
      fix: "Serve the shell's config.json at /config.json (deploy/nginx: SHELL_CONFIG_FILE).",
    });
    return undefined;
  }
  const cached = mustRevalidate(response, "The shell's config.json");
  if (cached) problems.push(cached);
  else passed.push(`config.json is revalidated at each load.`);
  if (!validateShellConfig(config)) {
    for (const problem of describeSchemaErrors(validateShellConfig.errors, config)) {
      problems.push({
        code: DOCTOR_CODES.config,
        what: `config.json: ${problem}`,
        breaks: 'The shell refuses the whole config and shows its error page.',
        fix: 'Correct config.json (its format: config.schema.json in @gatehouse/config, shell/README.md).',
      });
    }
    return undefined;
  }
  passed.push("config.json passes the shell's schema.");
  return config as unknown as ShellConfigShape;
}

function checkCsp(header: string | undefined, shell: URL, config: ShellConfigShape, { problems, passed }: Findings): void {
  if (!header) {
    problems.push({
      code: DOCTOR_CODES.cspMissing,
      what: `${shell.href} sends no Content-Security-Policy.`,
      breaks:
        "Nothing limits where the page loads code from: an injected script or a manifest naming code elsewhere runs with the visitor's session and token.",
      fix: 'Serve the shell with the CSP deploy/nginx renders from config.json (`node deploy/nginx/render.mjs --production …`), or send the same header from your server.',
    });
    return;
  }
  const csp = parseCsp(header);
  const idp = new URL(config.identityProvider.url).origin;
  const remotes = [...new Set(config.remotes.map((r) => new URL(r.manifest, shell).origin))];
  const blocked = (origins: string[], what: string) => (origins.some((o) => remotes.includes(o)) ? what : '');
  const events = config.sessionEvents ? new URL(config.sessionEvents.url).origin : null;
  const needs: Array<['connect-src' | 'frame-src' | 'script-src', string[], (missing: string[]) => string]> = [
    [
      'connect-src',
      [idp, ...remotes, ...(events ? [events] : [])],
      (missing) =>
        [
          missing.includes(idp) ? 'the calls to the identity provider (token, userinfo) are blocked, so nobody signs in' : '',
          blocked(missing, "the remotes' manifests are blocked, so their routes show an error"),
          events && missing.includes(events) ? "the session-events stream is blocked, so a session's end is not pushed to open pages" : '',
        ]
          .filter(Boolean)
          .join('; '),
    ],
    ['frame-src', [idp], () => "the provider's login-status frame and third-party-cookie check are blocked, so sessions are not checked"],
    ['script-src', remotes, () => "the remotes' code is blocked, so their routes show an error"],
  ];
  for (const [directive, origins, breaks] of needs) {
    const missing = origins.filter((origin) => !cspAllows(csp, directive, origin, shell.origin));
    if (missing.length === 0) {
      passed.push(`The shell's CSP ${directive} allows ${origins.join(', ') || 'what it needs'}.`);
      continue;
    }
    problems.push({
      code: DOCTOR_CODES.csp,
      what: `The shell's Content-Security-Policy ${directive} does not allow ${missing.join(', ')}.`,
      breaks: `In visitors' browsers ${breaks(missing)}.`,
      fix: `Add ${missing.join(' ')} to ${directive} (deploy/nginx renders the CSP from config.json: render again after changing it).`,
    });
  }
}

/** Runs a step; a network failure becomes a DOCTOR-UNREADABLE problem instead of ending the diagnosis. */
async function guarded<T>(findings: Findings, step: () => Promise<T>): Promise<T | null> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    findings.problems.push({
      code: DOCTOR_CODES.unreadable,
      what: error.message,
      breaks: 'Visitors meet the same failure where their browser reads this address.',
      fix: 'Check the address and that the server answers it.',
    });
    return null;
  }
}
