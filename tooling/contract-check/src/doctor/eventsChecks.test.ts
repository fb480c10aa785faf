import type { ReadOptions, ReadResponse } from '../net/readUrl';
import { checkSessionEvents } from './eventsChecks';
import type { Findings } from './providerChecks';

// The network is faked at its edge (a Reader): what the check asks and how it reads each kind of answer. The
// service's real answers are session-events' own tests (test/events.test.ts: 401 with the DPoP challenge, CORS).
const shell = new URL('https://portal.example.com/');
const SERVICE = 'https://events.example.com';

async function check(answer: Partial<ReadResponse>): Promise<{ findings: Findings; asked: Array<[string, ReadOptions | undefined]> }> {
  const asked: Array<[string, ReadOptions | undefined]> = [];
  const findings: Findings = { problems: [], passed: [] };
  await checkSessionEvents(
    async (url, options) => {
      asked.push([url, options]);
      return { url, status: 200, headers: {}, body: '', ...answer };
    },
    shell,
    `${SERVICE}/`,
    findings,
  );
  return { findings, asked };
}

const challenge = { 'www-authenticate': 'DPoP realm="session-events", algs="ES256"' };

test("the service's own refusal, with CORS for the shell: passed; asked as the page asks, with the shell's Origin", async () => {
  const { findings, asked } = await check({ status: 401, headers: { ...challenge, 'access-control-allow-origin': shell.origin } });
  expect(findings.problems).toEqual([]);
  expect(findings.passed).toEqual([`The session-events service at ${SERVICE}/events answers the shell's origin ${shell.origin}.`]);
  expect(asked).toEqual([[`${SERVICE}/events`, expect.objectContaining({ headers: expect.objectContaining({ origin: shell.origin }) })]]);
});

test('anything but the 401 with a DPoP challenge (a proxy page, another service, an open stream) is DOCTOR-SESSION-EVENTS', async () => {
  for (const answer of [
    { status: 404 },
    { status: 200, body: 'data: x\n\n' },
    { status: 401, headers: { 'www-authenticate': 'Bearer' } },
  ]) {
    const { findings } = await check(answer);
    expect(findings.passed).toEqual([]);
    expect(findings.problems).toEqual([
      expect.objectContaining({ code: 'DOCTOR-SESSION-EVENTS', what: expect.stringContaining(`answered HTTP ${answer.status}`) }),
    ]);
    expect(findings.problems[0]?.fix).toContain('sessionEvents.url');
  }
});

test("CORS that does not name the shell's origin is DOCTOR-SESSION-EVENTS, with the --origins to start it with", async () => {
  for (const headers of [challenge, { ...challenge, 'access-control-allow-origin': 'https://other.example.com' }]) {
    const { findings } = await check({ status: 401, headers });
    expect(findings.problems).toEqual([
      expect.objectContaining({ code: 'DOCTOR-SESSION-EVENTS', fix: expect.stringContaining(`--origins ${shell.origin}`) }),
    ]);
  }
});
