import { generateKeyPairSync } from 'node:crypto';

import { decodeJwt, endpoint, exchange, signIn } from '../test/support/codeFlow.js';
import { APP, CLIENT, scopedRealm } from '../test/support/fixtures.js';
import { FormBrowser } from '../test/support/FormBrowser.js';
import { dpopProof, newDpopKey, thumbprint, type DpopKey, type ProofFaults } from '../test/support/dpopProof.js';
import { normalise } from './normalise.js';
import type { Observation } from './normalise.js';
import type { Probe } from './probes.js';
import { adminOf, createRealm } from './providers.js';

type Key = DpopKey;

/** What the shell asks for at sign-in (decisions/0055). */
const SIGN_IN_SCOPE = 'openid role-audiences profile-api admin-api reports-api';

const proof = dpopProof;

async function tokenRequest(
  base: string,
  realm: string,
  body: Record<string, string>,
  key?: Key,
  faults?: ProofFaults | string,
): Promise<Response> {
  const url = endpoint(base, realm, 'token');
  const dpop = typeof faults === 'string' ? faults : key ? await proof(key, 'POST', url, undefined, faults) : undefined;
  return fetch(url, {
    method: 'POST',
    headers: dpop ? { dpop } : {},
    body: new URLSearchParams({ client_id: CLIENT, ...body }),
  });
}

/** A token answer as a client sees it, with what says whether (and to which key) its tokens are bound. */
async function answer(
  prefix: string,
  response: Response,
  base: string,
  key?: Key,
): Promise<{ out: Observation; body: Record<string, string> }> {
  const body = (await response.json()) as Record<string, string>;
  const out: Observation = { [`${prefix} status`]: response.status };
  if (body.error)
    return { out: { ...out, [`${prefix} error`]: body.error, [`${prefix} error_description`]: body.error_description }, body };
  out[`${prefix} token_type`] = body.token_type;
  const jkt = key ? await thumbprint(key) : undefined;
  for (const kind of ['access', 'refresh'] as const) {
    const jwt = body[`${kind}_token`];
    if (!jwt) continue;
    const cnf = decodeJwt(jwt).payload.cnf as { jkt?: unknown } | undefined;
    out[`${prefix} ${kind}.cnf.jkt`] = cnf?.jkt === undefined ? 'none' : cnf.jkt === jkt ? 'the proof key' : 'another';
  }
  if (body.access_token) out[`${prefix} access.aud`] = normalise(decodeJwt(body.access_token).payload.aud, base, 'aud');
  if (body.access_token) out[`${prefix} access.typ`] = decodeJwt(body.access_token).payload.typ as string;
  return { out, body };
}

/**
 * A refresh of `refreshToken` (down to `scope` when given) with a proof of `key` (spoilt by `faults`, or this proof as
 * it is) or none, as `answer` sees it under `label`.
 */
async function refresh(
  base: string,
  realm: string,
  label: string,
  refreshToken: string,
  { scope, key, faults }: { scope?: string; key?: Key; faults?: ProofFaults | string } = {},
): Promise<{ out: Observation; body: Record<string, string> }> {
  const body = { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope === undefined ? {} : { scope }) };
  return answer(label, await tokenRequest(base, realm, body, key, faults), base, key);
}

async function signedIn(base: string, realm: string, key?: Key): Promise<{ out: Observation; body: Record<string, string> }> {
  const { code, verifier } = await signIn(base, realm, 'alice', new FormBrowser(), { scope: SIGN_IN_SCOPE });
  const headers: Record<string, string> = key ? { dpop: await proof(key, 'POST', endpoint(base, realm, 'token')) } : {};
  return answer(
    key ? 'exchange with a proof' : 'exchange without a proof',
    await exchange(base, realm, code, verifier, headers),
    base,
    key,
  );
}

/**
 * What the session's token calls get when they carry a DPoP proof (decisions/0110): the binding of each
 * token, the page's own narrow token (a refresh down to `openid`), an API's token (a refresh down to its scope), the
 * bound refresh token without the key, and a client that requires DPoP (`dpop.bound.access.tokens`).
 */
export const DPOP_PROBES: Record<string, Probe> = {
  async 'DPoP: refreshes of a session signed in with a proof'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const key = newDpopKey();
    const other = newDpopKey();
    const first = await signedIn(base, realm, key);
    const out: Observation = { ...first.out };
    const refreshToken = first.body.refresh_token ?? '';
    for (const scope of ['openid', 'openid role-audiences', 'profile-api'])
      Object.assign(out, (await refresh(base, realm, `refresh "${scope}", proof`, refreshToken, { scope, key })).out);
    Object.assign(out, (await refresh(base, realm, 'refresh, no proof', refreshToken)).out);
    Object.assign(out, (await refresh(base, realm, 'refresh, another key', refreshToken, { key: other })).out);
    return out;
  },

  async 'DPoP: a session signed in without a proof, refreshed with one'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const key = newDpopKey();
    const first = await signedIn(base, realm);
    const out: Observation = { ...first.out };
    const original = first.body.refresh_token ?? '';
    const bound = await refresh(base, realm, 'refresh "openid", proof', original, { scope: 'openid', key });
    Object.assign(out, bound.out);
    Object.assign(out, (await refresh(base, realm, 'its refresh token, no proof', bound.body.refresh_token ?? '')).out);
    Object.assign(out, (await refresh(base, realm, 'the original, no proof', original)).out);
    return out;
  },

  async 'DPoP: a client that requires it'({ provider, realm }) {
    const rep = scopedRealm(realm);
    for (const client of rep.clients ?? []) {
      if (client.clientId === CLIENT) client.attributes = { ...client.attributes, 'dpop.bound.access.tokens': 'true' };
    }
    await createRealm(provider, rep);
    const base = provider.url;
    const key = newDpopKey();
    const out: Observation = { ...(await signedIn(base, realm)).out };
    const withKey = await signedIn(base, realm, key);
    Object.assign(out, withKey.out);
    const refreshToken = withKey.body.refresh_token ?? '';
    Object.assign(out, (await refresh(base, realm, 'refresh, proof', refreshToken, { scope: 'profile-api', key })).out);
    Object.assign(out, (await refresh(base, realm, 'refresh, no proof', refreshToken)).out);
    return out;
  },

  async 'DPoP: proofs the token endpoint refuses'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const key = newDpopKey();
    const other = newDpopKey();
    const out: Observation = {};
    // a code exchange with a proof for another method: the code is spent either way
    const { code, verifier } = await signIn(base, realm, 'alice', new FormBrowser(), { scope: SIGN_IN_SCOPE });
    const wrongMethod = await proof(key, 'POST', endpoint(base, realm, 'token'), undefined, { htm: 'GET' });
    Object.assign(
      out,
      (await answer('exchange, proof for GET', await exchange(base, realm, code, verifier, { dpop: wrongMethod }), base)).out,
    );
    const unbound = (await signedIn(base, realm)).body.refresh_token ?? '';
    const cases: Array<[string, ProofFaults]> = [
      ['proof for GET', { htm: 'GET' }],
      ['proof for userinfo', { htu: endpoint(base, realm, 'userinfo') }],
      ['proof for the token URL with a query', { htu: `${endpoint(base, realm, 'token')}?a=b` }],
      ['proof 15 s old', { iatOffset: -15 }],
      ['proof 5 min old', { iatOffset: -300 }],
      ['proof 15 s ahead', { iatOffset: 15 }],
      ['proof without jti', { jti: null }],
      ['proof of typ JWT', { typ: 'JWT' }],
      ['proof signed by another key', { signer: other }],
      ['proof with a nonce nobody asked for', { extra: { nonce: 'n-0S6_WzA2Mj' } }],
      ['proof with an ath', { extra: { ath: 'x' } }],
      ['proof for post (lower case)', { htm: 'post' }],
    ];
    for (const [label, faults] of cases)
      Object.assign(out, (await refresh(base, realm, `refresh, ${label}`, unbound, { key, faults })).out);
    const once = await proof(key, 'POST', endpoint(base, realm, 'token'));
    for (const [label, faults] of [
      ['refresh, a proof', once],
      ['refresh, the same proof again', once],
      ['refresh, a malformed proof', 'not-a-jwt'],
    ] as const)
      Object.assign(out, (await refresh(base, realm, label, unbound, { key, faults })).out);
    // a bound refresh token with a bad proof of its own key: which check answers first
    const bound = (await signedIn(base, realm, key)).body.refresh_token ?? '';
    Object.assign(out, (await refresh(base, realm, 'bound refresh, its key, proof for GET', bound, { key, faults: { htm: 'GET' } })).out);
    return out;
  },

  async 'DPoP: a bound refresh token after its session ended, and a proof with a refresh token that is none'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const key = newDpopKey();
    const other = newDpopKey();
    const out: Observation = {};
    Object.assign(out, (await refresh(base, realm, 'no refresh token, a proof', 'not-a-refresh-token', { key })).out);
    const bound = (await signedIn(base, realm, key)).body.refresh_token ?? '';
    const admin = await adminOf(provider);
    const [alice] = await admin.users.find({ realm, username: 'alice' });
    await admin.users.logout({ realm, id: alice?.id ?? '' });
    for (const [label, proofKey] of [
      ['ended, no proof', undefined],
      ['ended, another key', other],
      ['ended, its key', key],
    ] as const)
      Object.assign(out, (await refresh(base, realm, label, bound, { key: proofKey })).out);
    return out;
  },

  async 'DPoP: proofs signed with other algorithms'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keys: Array<[string, Key]> = [
      ['RS256', rsa],
      ['PS256', rsa],
      ['RS512', rsa],
      ['ES384', generateKeyPairSync('ec', { namedCurve: 'P-384' })],
      ['ES512', generateKeyPairSync('ec', { namedCurve: 'P-521' })],
      ['EdDSA', generateKeyPairSync('ed25519')],
      ['Ed25519', generateKeyPairSync('ed25519')],
    ];
    const out: Observation = {};
    const unbound = (await signedIn(base, realm)).body.refresh_token ?? '';
    for (const [alg, key] of keys)
      Object.assign(out, (await refresh(base, realm, `refresh, ${alg} proof`, unbound, { key, faults: { alg } })).out);
    return out;
  },

  async 'DPoP: a confidential client'({ provider, realm }) {
    const rep = scopedRealm(realm);
    const secret = 'conf-secret';
    rep.clients?.push({
      clientId: 'conf',
      enabled: true,
      publicClient: false,
      secret,
      standardFlowEnabled: true,
      redirectUris: [`${APP}/*`],
      webOrigins: ['+'],
    });
    await createRealm(provider, rep);
    const base = provider.url;
    const key = newDpopKey();
    const url = endpoint(base, realm, 'token');
    const basic = `Basic ${Buffer.from(`conf:${secret}`).toString('base64')}`;
    const call = async (body: Record<string, string>, withProof: boolean): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: basic, ...(withProof ? { dpop: await proof(key, 'POST', url) } : {}) },
        body: new URLSearchParams(body),
      });
    const { code, verifier } = await signIn(base, realm, 'alice', new FormBrowser(), { client_id: 'conf', scope: 'openid' });
    const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: `${APP}/` };
    const first = await answer('exchange with a proof', await call(exchange, true), base, key);
    const out: Observation = { ...first.out };
    const refresh = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token ?? '' };
    Object.assign(out, (await answer('refresh, no proof', await call(refresh, false), base)).out);
    Object.assign(out, (await answer('refresh, proof', await call(refresh, true), base, key)).out);
    return out;
  },

  async 'DPoP: user-info and the account API with a bound token'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const key = newDpopKey();
    const other = newDpopKey();
    const { body } = await signedIn(base, realm, key);
    // the page's own token: the session refreshed down to its own audiences (decisions/0112)
    const page = await refresh(base, realm, 'page', body.refresh_token ?? '', { scope: 'openid role-audiences', key });
    const token = page.body.access_token ?? '';
    const out: Observation = {};
    const targets: Array<[string, string]> = [
      ['user-info', endpoint(base, realm, 'userinfo')],
      ['account', `${base}/realms/${realm}/account`],
    ];
    for (const [label, url] of targets) {
      const sent: Array<[string, Record<string, string>]> = [
        ['as a bearer token', { authorization: `Bearer ${token}` }],
        ['with a proof', { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', url, token) }],
        ['with a proof of another key', { authorization: `DPoP ${token}`, dpop: await proof(other, 'GET', url, token) }],
        ['as DPoP without a proof', { authorization: `DPoP ${token}` }],
      ];
      for (const [how, headers] of sent) {
        const response = await fetch(url, { headers: { accept: 'application/json', ...headers } });
        out[`${label} ${how} status`] = response.status;
        if (response.ok) {
          const claims = (await response.json()) as Record<string, unknown>;
          out[`${label} ${how} user`] = (claims.preferred_username ?? claims.username) as string;
        }
      }
    }
    return out;
  },
};
