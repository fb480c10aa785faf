import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';

import { expect, test, type Page, type Request, type Response } from '@playwright/test';
import { SignJWT, calculateJwkThumbprint, decodeProtectedHeader, exportJWK, type JWK } from 'jose';

import { openWithSession, requestsTo, stepUpAtProvider } from '../../support/flows';

// decisions/0054: each demo remote calls its own API (demo-api/, :3010 under `npm start`) through authFetch
// with the view of the session the shell gave it. Every call carries a token whose audience is that API alone, and a
// token replayed at another remote's API is refused with 401 and a plain reason.
// decisions/0110: each of those tokens is bound to the browser's DPoP key (`cnf.jkt`) and goes with a proof
// of it; captured from the page's traffic and replayed from here, with its proof, as a bearer token or with a proof of
// another key, it is refused.

const API = 'http://localhost:3010';

function claimsOf(token: string): { aud?: string | string[]; cnf?: { jkt?: string } } {
  const part = token.split('.')[1];
  if (!part) throw new Error(`not a JWT: ${token.slice(0, 20)}…`);
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { aud?: string | string[]; cnf?: { jkt?: string } };
}

function audienceOf(token: string): string[] {
  const { aud } = claimsOf(token);
  return typeof aud === 'string' ? [aud] : (aud ?? []);
}

/** A proof a replaying attacker can make: signed by a key of their own. */
async function proofOfAnotherKey(method: string, url: string, token: string): Promise<string> {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return new SignJWT({ htm: method, htu: url, jti: randomUUID(), ath: createHash('sha256').update(token).digest('base64url') })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: await exportJWK(key.publicKey) })
    .setIssuedAt()
    .sign(key.privateKey);
}

async function apiAnswer(page: Page, remote: string): Promise<void> {
  await expect(page.locator(`[data-remote="${remote}"]`).getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });
}

test('each remote calls its own API with a token for that API alone; replayed at another API it gets 401 @idp', async ({
  page,
  request,
}) => {
  const calls: Request[] = requestsTo(page, API);
  // every token answer the page gets (read below, in the test's flow, while the page is open)
  const tokenAnswers: Response[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/protocol/openid-connect/token') && response.request().method() === 'POST') tokenAnswers.push(response);
  });

  await openWithSession(page, 'alice', '/profile');
  await apiAnswer(page, 'profile');
  // the page's own tokens, taken from the page's traffic before the step-up navigates away (a body is readable only
  // while its document is): the answers to the refreshes keycloak-js makes, which ask for the page's scope alone
  // (decisions/0112); and the refresh tokens of every answer
  const pageTokens: string[] = [];
  const refreshTokens: string[] = [];
  const grants: string[] = [];
  for (const answer of tokenAnswers) {
    const asked = new URLSearchParams(answer.request().postData() ?? '');
    const body = (await answer.json()) as { access_token?: unknown; refresh_token?: unknown };
    grants.push(`${asked.get('grant_type')} ${asked.get('scope') ?? '(no scope)'}: ${answer.status()}`);
    expect(answer.request().headers().dpop, `${asked.get('grant_type')} without a DPoP proof`).toBeTruthy();
    if (typeof body.refresh_token === 'string') refreshTokens.push(body.refresh_token);
    if (typeof body.access_token === 'string' && asked.get('scope') === 'openid role-audiences') pageTokens.push(body.access_token);
  }
  test.info().annotations.push({ type: 'token requests', description: grants.join('; ') });
  // and the one the page holds now: the page view's token, through the page's global registry as any script can read it
  pageTokens.push(
    await page.evaluate(() => {
      const registry = (globalThis as unknown as Record<symbol, { session: { getToken(): Promise<string> } } | undefined>)[
        Symbol.for('gatehouse.auth-lib.session')
      ];
      if (!registry) throw new Error("the page's session registry is missing");
      return registry.session.getToken();
    }),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await apiAnswer(page, 'reports');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await apiAnswer(page, 'admin');

  const sent = calls.filter((call) => call.method() === 'GET');
  const byPath = new Map<string, { token: string; proof: string }>();
  for (const call of sent) {
    const path = new URL(call.url()).pathname;
    const headers = call.headers();
    expect(headers.authorization, `${path} was called without a DPoP-bound token`).toMatch(/^DPoP /);
    expect(headers.dpop, `${path} was called without a proof`).toBeTruthy();
    byPath.set(path, { token: headers.authorization!.slice('DPoP '.length), proof: headers.dpop! });
  }
  expect([...byPath.keys()].sort()).toEqual(['/admin', '/profile', '/reports']);
  const keys = new Set<string>();
  for (const [path, { token, proof }] of byPath) {
    expect(audienceOf(token), path).toEqual([`${path.slice(1)}-api`]);
    // bound to the key the proof shows (one key for the browser)
    const jkt = await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK);
    expect(claimsOf(token).cnf?.jkt, path).toBe(jkt);
    keys.add(jkt);
    test.info().annotations.push({ type: 'binding', description: `${path}: aud ${audienceOf(token).join(' ')}, cnf.jkt ${jkt}` });
  }
  expect(keys.size).toBe(1);
  await expect(page.locator('[data-remote="admin"]').getByTestId('api-audience')).toHaveText('admin-api');

  const { token: profileToken, proof: profileProof } = byPath.get('/profile')!;
  const replays: Record<string, { authorization: string; dpop?: string }> = {
    'its own request again (the same proof)': { authorization: `DPoP ${profileToken}`, dpop: profileProof },
    'as a bearer token': { authorization: `Bearer ${profileToken}` },
    'with a proof of another key': {
      authorization: `DPoP ${profileToken}`,
      dpop: await proofOfAnotherKey('GET', `${API}/profile`, profileToken),
    },
  };
  for (const [how, headers] of Object.entries(replays)) {
    const replayed = await request.get(`${API}/profile`, { headers });
    expect(replayed.status(), `the profile API's token replayed ${how}`).toBe(401);
    test.info().annotations.push({ type: 'replay', description: `${how}: ${replayed.status()} ${await replayed.text()}` });
  }
  // the profile remote's token, replayed at the reports and admin APIs (with a proof the browser never made for them)
  for (const other of ['/reports', '/admin']) {
    const replayed = await request.get(`${API}${other}`, {
      headers: { authorization: `DPoP ${profileToken}`, dpop: await proofOfAnotherKey('GET', `${API}${other}`, profileToken) },
    });
    expect(replayed.status()).toBe(401);
  }

  // the page's own token: bound to the same key, with no API among its audiences, refused by every API
  expect(pageTokens.length).toBeGreaterThan(1); // the refreshes' answers, and the token the page holds
  const [jkt] = [...keys];
  for (const token of pageTokens) {
    expect(audienceOf(token).filter((audience) => audience.endsWith('-api'))).toEqual([]);
    expect(claimsOf(token).cnf?.jkt).toBe(jkt);
    test.info().annotations.push({ type: 'page token', description: `aud ${audienceOf(token).join(' ') || '(none)'}, cnf.jkt ${jkt}` });
    for (const path of ['/profile', '/reports', '/admin']) {
      for (const headers of <Record<string, string>[]>[
        { authorization: `Bearer ${token}` },
        { authorization: `DPoP ${token}`, dpop: await proofOfAnotherKey('GET', `${API}${path}`, token) },
      ]) {
        const answer = await request.get(`${API}${path}`, { headers });
        expect(answer.status(), `the page's own token at ${path} (${(headers.authorization ?? '').split(' ')[0]})`).toBe(401);
      }
    }
  }
  // the session's refresh token, replayed at the token endpoint from here: without the key, or with a proof of another
  const refreshToken = refreshTokens.at(-1)!;
  expect(claimsOf(refreshToken).cnf?.jkt, 'the refresh token is bound to the browser key').toBe(jkt);
  const tokenEndpoint = tokenAnswers[0]!.url();
  for (const [how, dpop] of [
    ['without a proof', undefined],
    ['with a proof of another key', await proofOfAnotherKey('POST', tokenEndpoint, refreshToken)],
  ] as const) {
    const replayed = await request.post(tokenEndpoint, {
      form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'gatehouse-shell' },
      headers: dpop ? { dpop } : {},
    });
    const body = await replayed.text();
    expect(replayed.status(), `the refresh token replayed ${how}: ${body}`).toBe(400);
    expect(body).not.toContain('access_token');
    test.info().annotations.push({ type: 'refresh token replay', description: `${how}: ${replayed.status()} ${body}` });
  }
});
