/**
 * @jest-environment node
 */
// keycloak-js's calls to the provider with proofs (decisions/0112): the wrapper in front of `fetch`, with real proofs
// (the `dpop` library over Node's WebCrypto) checked as a server checks them, and a recording stand-in for the network.
import { EmbeddedJWK, jwtVerify } from 'jose';

import { Dpop } from './dpop';
import { pageScopeOf, providerEndpoints, withProviderProofs, type ProviderCalls } from './providerCalls';

const BASE = 'https://idp.example/auth';
const endpoints = providerEndpoints(`${BASE}/`, 'team realm');
const TOKEN = endpoints.token;

/** an unsigned JWT with these claims (the wrapper reads `cnf`, never checks signatures) */
const jwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.x`;

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: URLSearchParams | null;
}

function network(answer: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const send = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body instanceof URLSearchParams ? new URLSearchParams(init.body) : null;
    const call = { url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body };
    sent.push(call);
    return answer(call);
  }) as typeof fetch;
  return { sent, send };
}

function wrapped(send: typeof fetch, pageScope: string | null = 'openid role-audiences') {
  const calls: ProviderCalls = { ...endpoints, dpop: new Dpop('n', { indexedDB: null, warn: () => undefined }), pageScope };
  return { fetch: withProviderProofs(send, () => [calls]), calls };
}

async function proofOf(headers: Headers) {
  const proof = headers.get('DPoP');
  if (!proof) throw new Error('no DPoP header was sent');
  return (await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt' })).payload;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

test("the page's scope is the sign-in's without any API's, or none when there is nothing to leave out", () => {
  expect(pageScopeOf(['role-audiences', 'profile-api', 'reports-api'], ['profile-api', 'reports-api', 'admin-api'])).toBe(
    'openid role-audiences',
  );
  expect(pageScopeOf(['role-audiences'], ['profile-api'])).toBeNull();
  expect(pageScopeOf([], [])).toBeNull();
  expect(endpoints).toEqual({
    token: 'https://idp.example/auth/realms/team%20realm/protocol/openid-connect/token',
    userinfo: 'https://idp.example/auth/realms/team%20realm/protocol/openid-connect/userinfo',
    account: 'https://idp.example/auth/realms/team%20realm/account',
  });
});

test("a refresh of the page's token goes with a proof for the token endpoint and asks for the page's scope", async () => {
  const { sent, send } = network(() => json({ access_token: 'a', refresh_token: 'r' }));
  const { fetch } = wrapped(send);
  const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r0', client_id: 'shell' });
  const response = await fetch(TOKEN, { method: 'POST', body, headers: [['Accept', 'application/json']] });
  expect(await response.json()).toEqual({ access_token: 'a', refresh_token: 'r' });
  expect(sent).toHaveLength(1);
  expect(Object.fromEntries(sent[0]!.body ?? [])).toEqual({
    grant_type: 'refresh_token',
    refresh_token: 'r0',
    client_id: 'shell',
    scope: 'openid role-audiences',
  });
  expect(sent[0]!.headers.get('Accept')).toBe('application/json');
  expect(await proofOf(sent[0]!.headers)).toMatchObject({ htm: 'POST', htu: TOKEN });
  expect((await proofOf(sent[0]!.headers)).ath).toBeUndefined();
});

test('the code exchange is narrowed at once: keycloak-js gets the page token with the exchange ID token (its nonce)', async () => {
  const { sent, send } = network((call) =>
    call.body?.get('grant_type') === 'authorization_code'
      ? json({ access_token: 'wide', refresh_token: 'r1', id_token: 'id-with-nonce', expires_in: 300 })
      : json({ access_token: 'narrow', refresh_token: 'r2', id_token: 'id-refreshed', expires_in: 300 }),
  );
  const { fetch } = wrapped(send);
  const body = new URLSearchParams({ code: 'c', grant_type: 'authorization_code', client_id: 'shell', redirect_uri: 'x' });
  const response = await fetch(TOKEN, { method: 'POST', body, credentials: 'include' });
  expect(await response.json()).toEqual({ access_token: 'narrow', refresh_token: 'r2', id_token: 'id-with-nonce', expires_in: 300 });
  expect(sent.map((call) => Object.fromEntries(call.body ?? []))).toEqual([
    { code: 'c', grant_type: 'authorization_code', client_id: 'shell', redirect_uri: 'x' },
    { grant_type: 'refresh_token', refresh_token: 'r1', client_id: 'shell', scope: 'openid role-audiences' },
  ]);
  for (const call of sent) expect(await proofOf(call.headers)).toMatchObject({ htm: 'POST', htu: TOKEN });
});

test('a refused narrowing fails the sign-in: the wide token never reaches keycloak-js', async () => {
  const { send } = network((call) =>
    call.body?.get('grant_type') === 'authorization_code'
      ? json({ access_token: 'wide', refresh_token: 'r1', id_token: 'i' })
      : json({ error: 'invalid_scope' }, 400),
  );
  const response = await wrapped(send).fetch(TOKEN, {
    method: 'POST',
    body: new URLSearchParams({ code: 'c', grant_type: 'authorization_code', client_id: 'shell' }),
  });
  expect(response.status).toBe(400);
  expect(JSON.stringify(await response.json())).not.toContain('wide');
});

test('without API scopes at sign-in, the exchange and refreshes keep their scope and only gain a proof', async () => {
  const { sent, send } = network(() => json({ access_token: 'a', refresh_token: 'r', id_token: 'i' }));
  const { fetch } = wrapped(send, null);
  await fetch(TOKEN, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }) });
  await fetch(TOKEN, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' }) });
  expect(sent.map((call) => call.body?.get('scope') ?? null)).toEqual([null, null]);
  expect(sent.every((call) => call.headers.has('DPoP'))).toBe(true);
});

test('user-info and account reads with a bound token go as DPoP with a proof for that address and token', async () => {
  const { sent, send } = network(() => json({ sub: 's' }));
  const { fetch } = wrapped(send);
  const bound = jwt({ cnf: { jkt: 'k' } });
  for (const url of [endpoints.userinfo, `${endpoints.account}`, `${endpoints.account}/credentials?x=1`]) {
    await fetch(url, {
      headers: [
        ['Authorization', `bearer ${bound}`],
        ['Accept', 'application/json'],
      ],
    });
  }
  expect(sent).toHaveLength(3);
  for (const call of sent) {
    expect(call.headers.get('Authorization')).toBe(`DPoP ${bound}`);
    expect(call.headers.get('Accept')).toBe('application/json');
    const proof = await proofOf(call.headers);
    expect(proof).toMatchObject({ htm: 'GET', htu: call.url.replace(/\?.*/, '') });
    expect(typeof proof.ath).toBe('string');
  }
});

test('everything else passes untouched: other addresses, a bearer token, a call that carries its own proof', async () => {
  const { sent, send } = network(() => json({}));
  const { fetch } = wrapped(send);
  const unbound = jwt({ sub: 's' });
  await fetch(endpoints.userinfo, { headers: { Authorization: `bearer ${unbound}` } });
  await fetch('https://api.example/profile', { method: 'POST', headers: { Authorization: 'DPoP t', DPoP: 'theirs' } });
  await fetch(`${BASE}/realms/team%20realm/protocol/openid-connect/token/../logout`);
  await fetch(TOKEN, { method: 'POST', headers: { DPoP: 'auth-lib-own' }, body: new URLSearchParams({ grant_type: 'refresh_token' }) });
  await fetch(`${BASE}/realms/other/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams() });
  expect(sent.map((call) => [call.headers.get('Authorization'), call.headers.get('DPoP'), call.body?.get('scope') ?? null])).toEqual([
    [`bearer ${unbound}`, null, null],
    ['DPoP t', 'theirs', null],
    [null, null, null],
    [null, 'auth-lib-own', null],
    [null, null, null],
  ]);
});

test('a nonce the token endpoint asks for is sent on a second try', async () => {
  let tries = 0;
  const { sent, send } = network(() =>
    ++tries === 1
      ? new Response(JSON.stringify({ error: 'use_dpop_nonce' }), { status: 400, headers: { 'DPoP-Nonce': 'n-1' } })
      : json({ access_token: 'a' }),
  );
  const response = await wrapped(send).fetch(TOKEN, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' }),
  });
  expect(response.status).toBe(200);
  expect(sent).toHaveLength(2);
  expect((await proofOf(sent[0]!.headers)).nonce).toBeUndefined();
  expect((await proofOf(sent[1]!.headers)).nonce).toBe('n-1');
});

test('a look-alike origin, a relative address, an address that is no URL and a Request pass untouched', async () => {
  const { sent, send } = network(() => json({}));
  const { fetch } = wrapped(send);
  const bound = jwt({ cnf: { jkt: 'k' } });
  const lookAlike = TOKEN.replace('idp.example', 'idp.example.evil');
  await fetch(lookAlike, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) });
  await fetch(`${endpoints.userinfo}.evil`, { headers: { Authorization: `bearer ${bound}` } });
  await fetch('/config.json'); // no page here: not a URL, and not the provider's either
  await fetch('http://[not a url');
  await fetch(new Request(TOKEN, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) }));
  expect(sent.map((call) => [call.url, call.headers.get('DPoP'), call.headers.get('Authorization')])).toEqual([
    [lookAlike, null, null],
    [`${endpoints.userinfo}.evil`, null, `bearer ${bound}`],
    ['/config.json', null, null],
    ['http://[not a url', null, null],
    [expect.stringContaining('[object Request]') as unknown as string, null, null],
  ]);
});
