import { DOCTOR_CODES } from './problems';
import type { Findings, Reader } from './providerChecks';

/**
 * The session-events service config.json names (decisions/0118), as the shell's page meets it: `GET {url}/events`
 * without a token must be the service's own refusal (401 with a DPoP challenge), with CORS for the shell's origin.
 * Anything else and no page hears a session's end pushed: they fall back to the session's own checks.
 */
export async function checkSessionEvents(read: Reader, shell: URL, url: string, { problems, passed }: Findings): Promise<void> {
  const events = `${url.replace(/\/+$/, '')}/events`;
  const answer = await read(events, { headers: { origin: shell.origin, accept: 'text/event-stream' }, timeoutMs: 5_000, maxBytes: 4096 });
  const fallback =
    "a session ended by an administrator or a sign-out elsewhere reaches visitors' open pages only by their own checks (minutes for an untouched page)";
  if (answer.status !== 401 || !/^DPoP\b/i.test(answer.headers['www-authenticate'] ?? '')) {
    problems.push({
      code: DOCTOR_CODES.sessionEvents,
      what: `The session-events service at ${events} answered HTTP ${answer.status}${answer.status === 401 ? ' without a DPoP challenge' : ''}, not as the service does (401 with WWW-Authenticate: DPoP to a request without a token).`,
      breaks: `No page subscribes: ${fallback}.`,
      fix: 'Check sessionEvents.url in config.json (the service\'s --public-url) and that your proxy routes GET /events to the service (deploy/README.md, "Session events").',
    });
    return;
  }
  if (answer.headers['access-control-allow-origin'] !== shell.origin) {
    problems.push({
      code: DOCTOR_CODES.sessionEvents,
      what: `The session-events service at ${events} does not allow the shell's origin ${shell.origin} (CORS).`,
      breaks: `The browser refuses the stream: ${fallback}.`,
      fix: `Start the service with --origins ${shell.origin} (a comma-separated list of the shells' origins).`,
    });
    return;
  }
  passed.push(`The session-events service at ${events} answers the shell's origin ${shell.origin}.`);
}
