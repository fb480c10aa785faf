import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { compactVerify, createLocalJWKSet } from 'jose';
import type { JSONWebKeySet } from 'jose';

import { decodeJwt, endpoint, signIn } from '../test/support/codeFlow.js';
import { APP } from '../test/support/fixtures.js';
import type { Observation } from './normalise.js';
import type { Probe } from './probes.js';
import { adminOf } from './providers.js';
import type { Provider } from './providers.js';

/** The client that takes back-channel logout, created through the admin API as an operator would. */
const BCL = 'bcl';
const RECEIVE_PATH = '/backchannel-logout';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One POST the receiver got, as it arrived. */
interface Post {
  method: string | undefined;
  path: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** A back-channel logout receiver on 127.0.0.1 that answers 200 and keeps each request. */
async function startReceiver(): Promise<{ url: string; posts: Post[]; close(): Promise<void> }> {
  const posts: Post[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push({ method: req.method, path: req.url, contentType: req.headers['content-type'], body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${RECEIVE_PATH}`,
    posts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The POSTs that arrive after `trigger`: waits for a first one up to `firstMs` (none: an empty list), then until no
 * other arrives for a second (Keycloak posts to a session's clients one after another).
 */
async function postsAfter(posts: Post[], trigger: () => Promise<unknown>, firstMs: number): Promise<Post[]> {
  const start = posts.length;
  await trigger();
  const deadline = Date.now() + firstMs;
  while (posts.length === start && Date.now() < deadline) await sleep(50);
  if (posts.length === start) return [];
  let seen = -1;
  while (seen !== posts.length) {
    seen = posts.length;
    await sleep(1000);
  }
  return posts.slice(start);
}

/** A session of `username` at client bcl by the password grant: its tokens and its id (the access token's sid). */
async function passwordSession(base: string, realm: string, username: string) {
  const response = await fetch(endpoint(base, realm, 'token'), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: BCL, username, password: username, scope: 'openid' }),
  });
  if (response.status !== 200) throw new Error(`password grant: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as { access_token: string; id_token: string };
  return { ...tokens, sid: String(decodeJwt(tokens.access_token).payload.sid), fields: Object.keys(tokens).sort() };
}

/** A session of alice signed in to bcl through the login form, in a browser that keeps its cookies. */
async function browserSession(base: string, realm: string) {
  const { browser, code, verifier } = await signIn(base, realm, 'alice', undefined, { client_id: BCL });
  const response = await fetch(endpoint(base, realm, 'token'), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: BCL, redirect_uri: `${APP}/`, code, code_verifier: verifier }),
  });
  if (response.status !== 200) throw new Error(`code exchange: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as { access_token: string; id_token: string };
  return { browser, ...tokens, sid: String(decodeJwt(tokens.access_token).payload.sid) };
}

/** What a receiver can see of one POST, with what differs per run replaced by what it must equal. */
async function postObservation(
  post: Post,
  expected: { base: string; realm: string; userId: string; sids: Record<string, string>; jwks: JSONWebKeySet; kid: unknown },
): Promise<Observation> {
  const form = new URLSearchParams(post.body);
  const token = form.get('logout_token') ?? '';
  const out: Observation = {
    method: post.method,
    path: post.path,
    'content-type': post.contentType,
    'form fields': [...form.keys()],
  };
  let decoded: ReturnType<typeof decodeJwt>;
  try {
    decoded = decodeJwt(token);
  } catch {
    return { ...out, logout_token: 'not a JWT' };
  }
  const { header, payload } = decoded;
  out['header fields'] = Object.keys(header).sort();
  out['header.alg'] = header.alg;
  out['header.typ'] = header.typ;
  out['header.kid = the realm’s RS256 key'] = header.kid === expected.kid;
  out['signature verifies with the realm’s JWKS'] = await compactVerify(token, createLocalJWKSet(expected.jwks)).then(
    () => true,
    () => false,
  );
  out['claims, in order'] = Object.keys(payload);
  for (const [claim, value] of Object.entries(payload)) {
    if (claim === 'iat' || claim === 'exp') out[`claim ${claim}`] = typeof value;
    else if (claim === 'jti') out['claim jti'] = typeof value === 'string' && UUID.test(value) ? 'uuid-shaped' : value;
    else if (claim === 'sub') out['claim sub'] = value === expected.userId ? 'the user’s id' : value;
    else if (claim === 'sid') out['claim sid'] = Object.entries(expected.sids).find(([, sid]) => sid === value)?.[0] ?? value;
    else if (claim === 'iss')
      out['claim iss'] = typeof value === 'string' ? value.split(expected.base).join('{base}').replace(expected.realm, '{realm}') : value;
    else out[`claim ${claim}`] = value;
  }
  if (typeof payload.exp === 'number' && typeof payload.iat === 'number') out['exp - iat'] = payload.exp - payload.iat;
  out['iat is now (±10 s)'] = typeof payload.iat === 'number' && Math.abs(payload.iat - Date.now() / 1000) <= 10;
  return out;
}

/** The realm's RS256 signing key's id (what a receiver finds the key by) and its JWKS. */
async function realmKeys(provider: Provider, realm: string): Promise<{ jwks: JSONWebKeySet; kid: unknown }> {
  const jwks = (await (await fetch(endpoint(provider.url, realm, 'certs'))).json()) as JSONWebKeySet;
  const key = jwks.keys.find((k) => k.alg === 'RS256' && (k.use ?? 'sig') === 'sig');
  return { jwks, kid: key?.kid };
}

/** Each case's POSTs as fields `${label}: …`: how many, and each one's observation (sorted by the session it names). */
async function observePosts(label: string, posts: Post[], expected: Parameters<typeof postObservation>[1]): Promise<Observation> {
  const observed = await Promise.all(posts.map((post) => postObservation(post, expected)));
  observed.sort((a, b) => String(a['claim sid']).localeCompare(String(b['claim sid'])));
  const out: Observation = { [`${label}: POSTs`]: posts.length };
  observed.forEach((post, i) => {
    for (const [field, value] of Object.entries(post)) out[`${label}: POST ${i + 1} ${field}`] = value;
  });
  return out;
}

/** Clients created through the admin API, by the back-channel settings they are created with. */
const CREATED_CLIENTS: Record<string, Record<string, unknown>> = {
  'no protocol, no attributes': {},
  'no protocol, session.required false': { attributes: { 'backchannel.logout.session.required': 'false' } },
  'openid-connect, no attributes': { protocol: 'openid-connect' },
  'openid-connect, session.required false, revoke.offline.tokens true': {
    protocol: 'openid-connect',
    attributes: { 'backchannel.logout.session.required': 'false', 'backchannel.logout.revoke.offline.tokens': 'true' },
  },
  'openid-connect, a URL': { protocol: 'openid-connect', attributes: { 'backchannel.logout.url': 'http://127.0.0.1:9/logout' } },
  'openid-connect, an empty URL': { protocol: 'openid-connect', attributes: { 'backchannel.logout.url': '' } },
  'openid-connect, front-channel': { protocol: 'openid-connect', frontchannelLogout: true },
};

export const BACKCHANNEL_PROBES: Record<string, Probe> = {
  /**
   * What the admin API answers for a client created with or without back-channel settings: Keycloak keeps only the
   * attributes it was given, and adds `backchannel.logout.session.required` "true" and `…revoke.offline.tokens` "false"
   * (OIDCLoginProtocolFactory.setupClientDefaults) only when the representation names its protocol and no URL.
   */
  async 'back-channel logout: the settings of a created client'({ provider, realm }) {
    const admin = await adminOf(provider);
    admin.setConfig({ realmName: realm });
    const out: Observation = {};
    for (const [name, rep] of Object.entries(CREATED_CLIENTS)) {
      const clientId = name.replace(/[^a-z]+/gi, '-').toLowerCase();
      await admin.clients.create({ clientId, publicClient: true, ...rep });
      const [created] = await admin.clients.find({ clientId });
      const backchannel = Object.entries(created?.attributes ?? {}).filter(([key]) => key.startsWith('backchannel.'));
      out[`${name}: backchannel attributes`] = Object.fromEntries(backchannel.sort(([a], [b]) => a.localeCompare(b)));
      out[`${name}: frontchannelLogout`] = created?.frontchannelLogout;
    }
    return out;
  },

  /**
   * Back-channel logout as Keycloak 26.7.3 posts it (decisions/0118): a client `bcl` created through the admin API with
   * `backchannel.logout.url` (a receiver on 127.0.0.1) and `backchannel.logout.session.required` "true", sessions made
   * by the password grant (and the login form where a browser takes part), and each logout the dev IdP sends tokens
   * for, one at a time: the admin API's user logout (two sessions at bcl, one at spa, which has no URL) and session
   * deletion, RP-initiated logout with the `id_token_hint` from elsewhere and in the browser holding the session; then
   * a disabled and a deleted user, which post nothing. What the receiver got within 5 s (3 s where nothing is
   * expected): the request, the form's fields, the token's header and claims (times as `exp - iat`, ids as what they
   * must equal: the user's id, the access token's `sid`, the realm's RS256 key id; the User-Agent is not looked at).
   * The refresh-token `POST …/logout` is left out: the dev IdP does not have it.
   */
  async 'back-channel logout'({ provider, realm }) {
    const base = provider.url;
    const receiver = await startReceiver();
    try {
      const admin = await adminOf(provider);
      admin.setConfig({ realmName: realm });
      await admin.clients.create({
        clientId: BCL,
        enabled: true,
        publicClient: true,
        standardFlowEnabled: true,
        directAccessGrantsEnabled: true,
        redirectUris: [`${APP}/*`],
        webOrigins: ['+'],
        attributes: {
          'pkce.code.challenge.method': 'S256',
          'post.logout.redirect.uris': '+',
          'backchannel.logout.url': receiver.url,
          'backchannel.logout.session.required': 'true',
        },
      });
      const [created] = await admin.clients.find({ clientId: BCL });
      const userId = async (username: string) => (await admin.users.find({ username, exact: true }))[0]?.id ?? '';
      const alice = await userId('alice');
      const bob = await userId('bob');
      const keys = await realmKeys(provider, realm);
      const expect = (sids: Record<string, string>, user = alice) => ({ base, realm, userId: user, sids, ...keys });
      // An admin's token lives 60 s on Keycloak's master realm: a fresh sign-in for each step.
      const fresh = async () => {
        const a = await adminOf(provider);
        a.setConfig({ realmName: realm });
        return a;
      };
      const out: Observation = {
        'client frontchannelLogout (as created)': created?.frontchannelLogout,
        'client attributes backchannel.*': Object.fromEntries(
          Object.entries(created?.attributes ?? {})
            .filter(([key]) => key.startsWith('backchannel.'))
            .map(([key, value]) => [key, key === 'backchannel.logout.url' ? value === receiver.url : value])
            .sort(([a], [b]) => String(a).localeCompare(String(b))),
        ),
      };

      // (a) admin: log out a user with two sessions at bcl (and one at spa, which has no URL)
      const first = await passwordSession(base, realm, 'alice');
      const second = await passwordSession(base, realm, 'alice');
      // the ID token an RP-initiated logout names the session with (scope openid): what the password grant answers
      out['password grant: response fields'] = first.fields;
      if (first.id_token) {
        const { header, payload } = decodeJwt(first.id_token);
        out['password grant: id_token header'] = {
          alg: header.alg,
          typ: header.typ,
          'kid = the realm’s RS256 key': header.kid === keys.kid,
        };
        out['password grant: id_token claims'] = Object.keys(payload).sort();
        out['password grant: id_token sid = access_token sid'] = payload.sid === first.sid;
        out['password grant: id_token aud, azp, typ, acr'] = [payload.aud, payload.azp, payload.typ, payload.acr];
      }
      await signIn(base, realm, 'alice');
      let status = 0;
      let posts = await postsAfter(
        receiver.posts,
        async () => {
          const response = await fetch(`${base}/admin/realms/${realm}/users/${alice}/logout`, {
            method: 'POST',
            headers: { authorization: `Bearer ${await (await fresh()).getAccessToken()}` },
          });
          status = response.status;
        },
        5000,
      );
      out['admin user logout: status'] = status;
      Object.assign(out, await observePosts('admin user logout', posts, expect({ 'session 1': first.sid, 'session 2': second.sid })));

      // (b) admin: delete one session
      const deleted = await passwordSession(base, realm, 'alice');
      posts = await postsAfter(
        receiver.posts,
        async () => {
          const response = await fetch(`${base}/admin/realms/${realm}/sessions/${deleted.sid}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${await (await fresh()).getAccessToken()}` },
          });
          status = response.status;
        },
        5000,
      );
      out['admin session delete: status'] = status;
      Object.assign(out, await observePosts('admin session delete', posts, expect({ 'the session': deleted.sid })));

      // (c) RP-initiated logout with the session's id_token_hint, from elsewhere (no browser cookies), no redirect
      const hinted = await passwordSession(base, realm, 'alice');
      posts = await postsAfter(
        receiver.posts,
        async () => {
          const query = new URLSearchParams({ client_id: BCL, id_token_hint: hinted.id_token });
          const response = await fetch(`${endpoint(base, realm, 'logout')}?${query}`, { redirect: 'manual' });
          status = response.status;
          await response.body?.cancel();
        },
        5000,
      );
      out['RP logout, hint without the browser: status'] = status;
      Object.assign(out, await observePosts('RP logout, hint without the browser', posts, expect({ 'the session': hinted.sid })));

      // (c') RP-initiated logout in the browser that holds the session (signed in to bcl through the form)
      const signedIn = await browserSession(base, realm);
      posts = await postsAfter(
        receiver.posts,
        async () => {
          const query = new URLSearchParams({
            client_id: BCL,
            id_token_hint: signedIn.id_token,
            post_logout_redirect_uri: `${APP}/`,
          });
          const response = await signedIn.browser.fetch(`${endpoint(base, realm, 'logout')}?${query}`);
          status = response.status;
          await response.body?.cancel();
        },
        5000,
      );
      out['RP logout in the browser: status'] = status;
      Object.assign(out, await observePosts('RP logout in the browser', posts, expect({ 'the session': signedIn.sid })));

      // (d) a disabled user: nothing posted (Keycloak keeps the session and posts nothing)
      await passwordSession(base, realm, 'bob');
      posts = await postsAfter(
        receiver.posts,
        async () => {
          // as the admin console does: the user's representation back, with enabled off
          const a = await fresh();
          await a.users.update({ id: bob }, { ...(await a.users.findOne({ id: bob })), enabled: false });
        },
        3000,
      );
      Object.assign(out, await observePosts('user disabled', posts, expect({}, bob)));

      // (e) a deleted user: nothing posted either (UserManager.removeUser)
      await passwordSession(base, realm, 'alice');
      posts = await postsAfter(receiver.posts, () => fresh().then((a) => a.users.del({ id: alice })), 3000);
      Object.assign(out, await observePosts('user deleted', posts, expect({})));
      return out;
    } finally {
      await receiver.close();
    }
  },
};
