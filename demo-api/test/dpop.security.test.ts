// The server half: the demo APIs take a DPoP-bound access token only as `Authorization: DPoP` with a
// valid proof of its key for this request (RFC 9449 4.3, 7.1), never as a bearer token (7.2), and no unbound token.
// Real tokens of a real provider (the dev IdP started here, or DEMO_API_IDP_URL's Keycloak): alice signs in with a
// DPoP proof, as the shell does, and the refresh downscoped to profile-api is bound to the same key.
import assert from 'node:assert/strict';
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { SignJWT } from 'jose';
import type { JWK } from 'jose';

import { MemoryReplayStore, startDemoApi } from '../src/index.js';
import type { DemoApi } from '../src/index.js';
import { ALGS, bearerCall, dpopCall, dpopKey, dpopProof, preflight, refusal, signIn, startProvider, tokenFor } from './support/provider.js';
import type { DpopKey, Provider } from './support/provider.js';

const REALM = 'demo-api-dpop-test';

let provider: Provider;
let api: DemoApi;
let key: DpopKey;
/** alice's access token for profile-api alone, bound to `key` */
let token: string;
/** the same, not bound to any key (a sign-in without a proof) */
let unbound: string;
let profile: string;

before(async () => {
  provider = await startProvider();
  // the demo realm requires DPoP of the shell's client (decisions/0112); here it does not, so that alice can also get an
  // unbound token — what a client that proves nothing would hold — to show the API refuses it
  await provider.createRealm(REALM, (rep) => ({
    ...rep,
    clients: rep.clients?.map((client) =>
      client.clientId === 'gatehouse-shell'
        ? { ...client, attributes: { ...client.attributes, 'dpop.bound.access.tokens': 'false' } }
        : client,
    ),
  }));
  key = await dpopKey();
  const bound = await signIn(provider.base, REALM, { key });
  token = await tokenFor(provider.base, REALM, 'profile-api', bound.refresh_token, key);
  const bearer = await signIn(provider.base, REALM);
  unbound = await tokenFor(provider.base, REALM, 'profile-api', bearer.refresh_token);
  api = await startDemoApi({ port: 0, issuer: `${provider.base}/realms/${REALM}`, quiet: true });
  profile = `${api.url}/profile`;
});

after(async () => {
  await api?.close();
  await provider?.close();
});

/** `GET profile` with the bound token and `proof`. */
const withProof = (proof: string, url = profile) => dpopCall(url, token, key, { proof });

describe('a DPoP-bound token', () => {
  test('with a good proof: 200, and the same again with a new proof', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await dpopCall(profile, token, key);
      assert.equal(response.status, 200, await response.clone().text());
      const { scope, ...body } = (await response.json()) as { scope: string };
      assert.deepEqual(body, { api: 'profile', audience: 'profile-api', aud: ['profile-api'], user: 'alice' });
      assert.ok(scope.split(' ').includes('profile-api'), scope);
    }
  });

  test('a proof used once is refused the second time (jti)', async () => {
    const proof = await dpopProof(key, 'GET', profile, token);
    assert.equal((await withProof(proof)).status, 200);
    assert.equal(
      await refusal(await withProof(proof), 'invalid_dpop_proof'),
      'this DPoP proof was used before (jti): each request needs a new proof',
    );
  });

  test('a proof signed by another key (its own jwk in the header) is refused (cnf.jkt)', async () => {
    const other = await dpopKey();
    assert.equal(
      await refusal(await withProof(await dpopProof(other, 'GET', profile, token)), 'invalid_dpop_proof'),
      'the DPoP proof is signed by another key than the one this token is bound to (cnf.jkt)',
    );
  });

  test("a proof naming the token's key but signed by another: the signature does not verify", async () => {
    const other = await dpopKey();
    const forged = await dpopProof(key, 'GET', profile, token, { signer: other });
    assert.equal(await refusal(await withProof(forged), 'invalid_dpop_proof'), "the DPoP proof's signature does not verify");
  });

  test('a proof for another method is refused (htm)', async () => {
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { htm: 'POST' })), 'invalid_dpop_proof'),
      'the DPoP proof is for "POST" (htm), this request is GET',
    );
  });

  test('a proof for another URL is refused (htu): another path, another origin, http for https', async () => {
    for (const htu of [`${api.url}/admin`, `http://127.0.0.1:${new URL(api.url).port}/profile`, profile.replace('http:', 'https:')]) {
      assert.equal(
        await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { htu })), 'invalid_dpop_proof'),
        `the DPoP proof is for "${htu}" (htu), this request is ${profile}`,
      );
    }
  });

  test('a URL the proof names is shown in the reason as printable ASCII, at most 200 characters (it goes into a header)', async () => {
    assert.equal(
      await refusal(
        await withProof(await dpopProof(key, 'GET', profile, token, { htu: 'http://x/€\r\nX-Injected: 1' })),
        'invalid_dpop_proof',
      ),
      `the DPoP proof is for "http://x/\\u20ac\\r\\nX-Injected: 1" (htu), this request is ${profile}`,
    );
    const long = `http://x/${'a'.repeat(300)}`;
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { htu: long })), 'invalid_dpop_proof'),
      `the DPoP proof is for "${long.slice(0, 196)}... (htu), this request is ${profile}`,
    );
  });

  test('htu is compared without query and fragment, normalised (scheme and host in any case, the default port): 200', async () => {
    const port = new URL(api.url).port;
    for (const [requested, htu] of [
      [`${profile}?page=2`, profile],
      [profile, `${profile}?page=2#top`],
      [profile, `HTTP://LOCALHOST:${port}/profile`],
    ] as const) {
      const response = await withProof(await dpopProof(key, 'GET', profile, token, { htu }), requested);
      assert.equal(response.status, 200, `${requested} with htu ${htu}: ${await response.clone().text()}`);
    }
  });

  test('a proof for another access token is refused (ath), and one without ath', async () => {
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, unbound)), 'invalid_dpop_proof'),
      'the DPoP proof is for another access token (ath)',
    );
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile)), 'invalid_dpop_proof'),
      "the DPoP proof has no ath (the access token's hash)",
    );
  });

  test('a proof issued more than 60 s ago, or more than 60 s ahead, is refused (iat); 50 s either way is taken', async () => {
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { iatOffset: -61 })), 'invalid_dpop_proof'),
      'the DPoP proof is too old (iat more than 60 s ago)',
    );
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { iatOffset: 62 })), 'invalid_dpop_proof'),
      "the DPoP proof is issued in the future (iat more than 60 s ahead of this API's clock)",
    );
    for (const iatOffset of [-50, 50]) {
      assert.equal((await withProof(await dpopProof(key, 'GET', profile, token, { iatOffset }))).status, 200, `iat ${iatOffset} s`);
    }
  });

  test('no proof, two proofs, or one that is no dpop+jwt is refused', async () => {
    const response = await fetch(profile, { headers: { authorization: `DPoP ${token}` } });
    assert.equal(
      await refusal(response, 'invalid_dpop_proof'),
      'no DPoP proof: a DPoP-bound token needs a DPoP header with a proof signed by its key',
    );
    const headers = new Headers({ authorization: `DPoP ${token}` });
    headers.append('dpop', await dpopProof(key, 'GET', profile, token));
    headers.append('dpop', await dpopProof(key, 'GET', profile, token));
    assert.equal(
      await refusal(await fetch(profile, { headers }), 'invalid_dpop_proof'),
      'more than one DPoP proof: send exactly one DPoP header',
    );
    assert.equal(await refusal(await withProof('not-a-jwt'), 'invalid_dpop_proof'), 'the DPoP proof is not a JWT');
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { typ: 'JWT' })), 'invalid_dpop_proof'),
      `the DPoP proof's typ is "JWT", not "dpop+jwt"`,
    );
  });

  test('a proof with a shared-secret algorithm, without a jwk, or with a private key in it is refused', async () => {
    const secret = createSecretKey(randomBytes(32));
    const hs256 = await new SignJWT({ htm: 'GET', htu: profile, jti: 'x', ath: createHash('sha256').update(token).digest('base64url') })
      // jose's types keep private members out of a header's jwk: this proof puts the secret there on purpose
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk: { kty: 'oct', k: secret.export().toString('base64url') } as JWK })
      .setIssuedAt()
      .sign(secret);
    assert.equal(
      await refusal(await withProof(hs256), 'invalid_dpop_proof'),
      `the DPoP proof is signed with "HS256"; this API takes ${ALGS}`,
    );
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { jwk: null })), 'invalid_dpop_proof'),
      "the DPoP proof's header carries no public key (jwk)",
    );
    const privateJwk = key.privateKey.export({ format: 'jwk' });
    assert.equal(
      await refusal(await withProof(await dpopProof(key, 'GET', profile, token, { jwk: privateJwk })), 'invalid_dpop_proof'),
      "the DPoP proof's jwk holds a private key",
    );
  });

  test('sent as a bearer token it is refused, with or without a proof (RFC 9449 7.2)', async () => {
    const reason = 'this token is bound to a DPoP key (cnf.jkt): send it as Authorization: DPoP with a DPoP proof, not as a bearer token';
    assert.equal(await refusal(await bearerCall(profile, token)), reason);
    assert.equal(await refusal(await bearerCall(profile, token, { dpop: await dpopProof(key, 'GET', profile, token) })), reason);
  });
});

describe('an unbound token', () => {
  const reason =
    'this token is not bound to a DPoP key (no cnf.jkt); profile-api accepts only DPoP-bound tokens, sent as Authorization: DPoP with a proof';

  test('as a bearer token: refused, the APIs take sender-constrained tokens only', async () => {
    assert.equal(await refusal(await bearerCall(profile, unbound)), reason);
  });

  test('as DPoP, with a proof of some key: refused the same', async () => {
    assert.equal(await refusal(await dpopCall(profile, unbound, await dpopKey())), reason);
  });
});

describe('requireDpop: false (until every client sends proofs)', () => {
  let lenient: DemoApi;
  before(async () => {
    lenient = await startDemoApi({ port: 0, issuer: `${provider.base}/realms/${REALM}`, requireDpop: false, quiet: true });
  });
  after(async () => {
    await lenient?.close();
  });

  test('an unbound bearer token is answered; a bound one still needs its proof, and never goes as Bearer', async () => {
    const url = `${lenient.url}/profile`;
    assert.equal((await bearerCall(url, unbound)).status, 200);
    assert.equal((await dpopCall(url, token, key)).status, 200);
    assert.equal(
      await refusal(await bearerCall(url, token)),
      'this token is bound to a DPoP key (cnf.jkt): send it as Authorization: DPoP with a DPoP proof, not as a bearer token',
    );
    const noProof = await fetch(url, { headers: { authorization: `DPoP ${token}` } });
    assert.equal(
      await refusal(noProof, 'invalid_dpop_proof'),
      'no DPoP proof: a DPoP-bound token needs a DPoP header with a proof signed by its key',
    );
    const unboundAsDpop = await dpopCall(url, unbound, key);
    assert.equal(await refusal(unboundAsDpop), 'this token is not bound to a DPoP key (no cnf.jkt): send it as Authorization: Bearer');
    const none = await fetch(url);
    assert.equal(await none.text(), 'no access token (Authorization: Bearer or DPoP)');
    assert.equal(none.headers.get('www-authenticate'), `DPoP realm="profile-api", algs="${ALGS}", Bearer realm="profile-api"`);
  });
});

describe('behind a proxy: the public URL', () => {
  test('proofs name the public URL (publicUrl, with the prefix the proxy strips), not the address the API listens on', async () => {
    const proxied = await startDemoApi({
      port: 0,
      issuer: `${provider.base}/realms/${REALM}`,
      publicUrl: 'https://api.example.com/demo/',
      quiet: true,
    });
    try {
      const url = `${proxied.url}/profile`;
      assert.equal(proxied.publicUrl, 'https://api.example.com/demo');
      const good = await withProof(await dpopProof(key, 'GET', url, token, { htu: 'https://api.example.com/demo/profile' }), url);
      assert.equal(good.status, 200, await good.clone().text());
      assert.equal(
        await refusal(await withProof(await dpopProof(key, 'GET', url, token), url), 'invalid_dpop_proof'),
        `the DPoP proof is for "${url}" (htu), this request is https://api.example.com/demo/profile`,
      );
      // Host and X-Forwarded-* do not move it
      const forwarded = await fetch(url, {
        headers: {
          authorization: `DPoP ${token}`,
          dpop: await dpopProof(key, 'GET', url, token, { htu: 'https://evil.example/profile' }),
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
        },
      });
      assert.equal(
        await refusal(forwarded, 'invalid_dpop_proof'),
        'the DPoP proof is for "https://evil.example/profile" (htu), this request is https://api.example.com/demo/profile',
      );
    } finally {
      await proxied.close();
    }
  });
});

describe('the replay store', () => {
  test('full of unexpired jti, it records no more and the API answers 503 instead of forgetting one', async () => {
    const full = await startDemoApi({
      port: 0,
      issuer: `${provider.base}/realms/${REALM}`,
      dpopReplays: new MemoryReplayStore(1),
      quiet: true,
    });
    try {
      const url = `${full.url}/profile`;
      assert.equal((await dpopCall(url, token, key)).status, 200);
      const response = await dpopCall(url, token, key);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.equal(
        await response.text(),
        "the DPoP proof's jti could not be recorded (1 DPoP proofs are remembered and none has expired yet); try again",
      );
    } finally {
      await full.close();
    }
  });

  test('an expired jti is dropped to make room; a jti is remembered for twice the window', () => {
    let now = 0;
    const store = new MemoryReplayStore(1, () => now);
    assert.equal(store.firstUse('a', 120), true);
    assert.equal(store.firstUse('a', 120), false);
    now = 119_999;
    assert.equal(store.firstUse('a', 120), false);
    assert.throws(() => store.firstUse('b', 120), /1 DPoP proofs are remembered/);
    now = 120_000;
    assert.equal(store.firstUse('b', 120), true);
    assert.equal(store.size, 1);
  });
});

describe('CORS', () => {
  test('an allowed origin may send DPoP and read WWW-Authenticate; no DPoP-Nonce is sent or exposed', async () => {
    const allowedApi = await startDemoApi({
      port: 0,
      issuer: `${provider.base}/realms/${REALM}`,
      origins: ['http://localhost:3001'],
      quiet: true,
    });
    try {
      const url = `${allowedApi.url}/profile`;
      const allowed = await preflight(url);
      assert.equal(allowed.status, 204);
      assert.equal(allowed.headers.get('access-control-allow-headers'), 'Authorization, DPoP');
      const response = await fetch(url, {
        headers: { origin: 'http://localhost:3001', authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url, token) },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-expose-headers'), 'WWW-Authenticate');
      assert.equal(response.headers.get('dpop-nonce'), null);
    } finally {
      await allowedApi.close();
    }
  });
});
