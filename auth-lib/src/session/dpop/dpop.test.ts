/**
 * @jest-environment node
 */
// The page's DPoP proofs (decisions/0110), made with the real `dpop` library and Node's WebCrypto and checked
// the way a resource server checks them (jose), against a real HTTP server for the nonce round trip.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';

import type { TokenSet } from '../tokens/tokenSet';
import { Dpop, boundKeyOf, boundToThisBrowser, proofTarget } from './dpop';

const quiet = { indexedDB: null, warn: () => undefined };

async function verified(proof: string) {
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'] });
  return { payload, jwk: protectedHeader.jwk as JWK };
}

test('a proof is an ES256 dpop+jwt of the browser key for this method and address, with a fresh jti and the token hash', async () => {
  const dpop = new Dpop('provider realm client', quiet);
  const token = 'eyJhbGciOiJSUzI1NiJ9.e30.sig';
  const first = await dpop.proof('get', 'https://api.example/profile/me?x=1#frag', token);
  const second = await dpop.proof('GET', 'https://api.example/profile/me', token);
  const a = await verified(first);
  const b = await verified(second);
  expect(decodeProtectedHeader(first)).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
  expect(a.payload).toMatchObject({
    htm: 'GET',
    htu: 'https://api.example/profile/me',
    ath: createHash('sha256').update(token).digest('base64url'),
  });
  expect(typeof a.payload.iat).toBe('number');
  expect(Math.abs((a.payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
  expect(a.payload.jti).not.toEqual(b.payload.jti);
  expect(a.jwk).toEqual(b.jwk); // one key
  expect(Object.keys(a.jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']); // public members only
  expect(await dpop.jkt()).toBe(await calculateJwkThumbprint(a.jwk));
});

test('the private key cannot be read: it is not extractable', async () => {
  const exported: unknown[] = [];
  const dpop = new Dpop('n', {
    ...quiet,
    generateProof: async (keyPair) => {
      exported.push(await crypto.subtle.exportKey('jwk', keyPair.privateKey).catch((error: unknown) => error));
      return 'x';
    },
  });
  await dpop.proof('POST', 'https://idp.example/token');
  expect(exported).toHaveLength(1);
  expect(String(exported[0])).toMatch(/not extractable/i);
});

test('a token endpoint proof has no ath; the token type decides the scheme (cnf.jkt)', async () => {
  const dpop = new Dpop('n', quiet);
  const { payload } = await verified(await dpop.proof('POST', 'https://idp.example/realms/r/protocol/openid-connect/token'));
  expect(payload.ath).toBeUndefined();
  expect(proofTarget('https://idp.example/a?b#c')).toBe('https://idp.example/a');
  const claims = (o: object) => `e30.${Buffer.from(JSON.stringify(o)).toString('base64url')}.s`;
  expect(boundKeyOf(claims({ cnf: { jkt: 'abc' } }))).toBe('abc');
  expect(boundKeyOf(claims({ sub: 'x' }))).toBeNull();
});

test('a server that asks for a nonce (use_dpop_nonce) gets the request again once, with a proof carrying its nonce', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const proof = String(req.headers.dpop);
    const nonce = JSON.parse(Buffer.from(proof.split('.')[1] ?? '', 'base64url').toString()).nonce;
    if (nonce !== 'n-1') {
      res.writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': 'n-1' }).end();
    } else res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const dpop = new Dpop('n', quiet);
    const response = await dpop.send(fetch, url, { method: 'GET' }, 'tok');
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen.map((h) => h.authorization)).toEqual(['DPoP tok', 'DPoP tok']);
    // the next request to that server carries the nonce at once
    await dpop.send(fetch, url, { method: 'GET' }, 'tok');
    expect(seen).toHaveLength(3);
  } finally {
    server.close();
  }
});

test('hostile claims make no bound token: a non-string jkt, or cnf hidden behind a __proto__ key, is read as unbound', () => {
  const token = (json: string) => `e30.${Buffer.from(json).toString('base64url')}.s`;
  expect(boundKeyOf(token('{"cnf":{"jkt":{"toString":"x"}}}'))).toBeNull();
  expect(boundKeyOf(token('{"__proto__":{"cnf":{"jkt":"planted"}}}'))).toBeNull();
  expect(boundKeyOf(token('{"cnf":"jkt"}'))).toBeNull();
  expect(boundKeyOf('not a jwt')).toBeNull();
});

test("a server's nonce with quotes and a look-alike address goes into the proof as a value, never as JSON or another htu", async () => {
  const hostile = '","htu":"https://evil.example/"';
  const server = createServer((req, res) => {
    res.writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': hostile }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const dpop = new Dpop('n', quiet);
    await dpop.send(fetch, url, { method: 'GET' }, 'tok');
    const { payload } = await verified(await dpop.proof('GET', url, 'tok'));
    expect(payload.nonce).toBe(hostile);
    expect(payload.htu).toBe(url);
  } finally {
    server.close();
  }
});

test("another tab's token set is refused when bound to a key that is not this browser's; a bearer set is only verified", async () => {
  const jwt = (claims: Record<string, unknown>) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.x`;
  const seen: string[] = [];
  const verify = Object.assign(async (set: TokenSet) => (seen.push(set.token), set.token.endsWith('bad') ? 'bad signature' : null), {
    warm: () => undefined,
  });
  const checked = boundToThisBrowser(verify, { jkt: async () => 'mine' });
  const set = (token: string): TokenSet => ({ token, idToken: null, timeSkew: 0, refreshExpiresAt: null });
  expect(await checked(set(jwt({ cnf: { jkt: 'mine' } })))).toBeNull();
  expect(await checked(set(jwt({ cnf: { jkt: 'theirs' } })))).toBe("bound to a DPoP key that is not this browser's");
  expect(await checked(set(jwt({ sub: 'bearer' })))).toBeNull();
  expect(await checked(set(`${jwt({ cnf: { jkt: 'mine' } })}bad`))).toBe('bad signature');
  expect(seen).toHaveLength(4); // the provider's signature is checked either way
  expect(checked.warm).toBe(verify.warm);
});

test('warm() makes the key before the first proof needs it, once: the proof then signs with that key', async () => {
  let made = 0;
  const dpop = new Dpop('n', {
    indexedDB: null,
    warn: () => undefined,
    generateKeyPair: () => (made++, crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])),
  });
  dpop.warm(true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(made).toBe(1); // made already, before any proof asked for it
  const { jwk } = await verified(await dpop.proof('POST', 'https://idp.example/token'));
  expect(made).toBe(1);
  expect(await calculateJwkThumbprint(jwk)).toBe(await dpop.jkt());
});
