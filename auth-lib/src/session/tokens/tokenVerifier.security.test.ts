/**
 * @jest-environment node
 */
// Security round four: the verifier of another tab's tokens pins the algorithms the realm
// publishes and checks what each token is (`typ`) and whom it was issued to (`azp`), so an ID token, another
// client's token or a token in an algorithm the realm does not use is never adopted. The realm's keys are served
// over HTTP here as a provider serves them (`…/protocol/openid-connect/certs`) and the tokens signed with node's
// crypto; the verifier runs as the page runs it, with jose (ES modules only, so in a Node process of its own:
// this jest runs CommonJS).
import { execFile } from 'node:child_process';
import { createHmac, generateKeyPairSync, sign, constants } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLIENT = 'gatehouse-shell';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicJwk = publicKey.export({ format: 'jwk' });

let server: Server;
let base: string;
let work: string;

beforeAll(async () => {
  // realm "gatehouse" names its key's algorithm, as Keycloak does; realm "bare" publishes the same key without one
  server = createServer((req, res) => {
    const keys: Record<string, object> = {
      '/realms/gatehouse/protocol/openid-connect/certs': { keys: [{ ...publicJwk, kid: 'k1', use: 'sig', alg: 'RS256' }] },
      '/realms/bare/protocol/openid-connect/certs': { keys: [{ ...publicJwk, kid: 'k1', use: 'sig' }] },
    };
    const body = keys[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  work = mkdtempSync(join(tmpdir(), 'token-verifier-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

/** A JWT with `header` and `claims`, signed as its `alg` says (RS256, PS256, HS256 with a secret, or none). */
function jwt(claims: Record<string, unknown>, alg = 'RS256'): string {
  const input = `${b64({ alg, typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
  const data = Buffer.from(input);
  const signature =
    alg === 'none'
      ? Buffer.alloc(0)
      : alg === 'HS256'
        ? createHmac('sha256', 'a shared secret').update(data).digest()
        : alg === 'PS256'
          ? sign('sha256', data, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
          : sign('sha256', data, privateKey);
  return `${input}.${b64(signature)}`;
}

const now = () => Math.floor(Date.now() / 1000);
/** The claims Keycloak writes for the shell's access token and ID token of one session. */
const access = (realm = 'gatehouse', extra: Record<string, unknown> = {}) => ({
  iss: `${base}/realms/${realm}`,
  sub: 'alice-id',
  sid: 'sid-1',
  typ: 'Bearer',
  azp: CLIENT,
  aud: ['profile-api', 'admin-api'],
  iat: now(),
  exp: now() + 300,
  ...extra,
});
const id = (extra: Record<string, unknown> = {}) => ({
  iss: `${base}/realms/gatehouse`,
  sub: 'alice-id',
  sid: 'sid-1',
  typ: 'ID',
  azp: CLIENT,
  aud: CLIENT,
  iat: now(),
  exp: now() + 300,
  ...extra,
});

interface Set {
  token: string;
  idToken: string | null;
}

/** What `providerKeyVerifier` says of each set, run in a Node process with jose as the page runs it. */
async function verdicts(realm: string, sets: readonly Set[]): Promise<(string | null)[]> {
  // CommonJS, as auth-lib's sources are: its `import('jose')` is then Node's own dynamic import of the ES module
  const harness = join(work, `harness-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(
    harness,
    `const { providerKeyVerifier } = require(${JSON.stringify(join(__dirname, 'tokenVerifier.ts'))});
const { config, sets } = JSON.parse(process.argv[2]);
(async () => {
  const verify = providerKeyVerifier(config);
  const out = [];
  for (const set of sets) out.push(await verify({ ...set, timeSkew: 0, refreshExpiresAt: null }));
  process.stdout.write(JSON.stringify(out));
})();
`,
  );
  const input = JSON.stringify({ config: { url: base, realm, clientId: CLIENT, timeout: 5000 }, sets });
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--require', 'tsx/cjs', harness, input], { cwd: __dirname }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    ),
  );
  return JSON.parse(stdout) as (string | null)[];
}

test('the tokens of this session, as the provider signs them, are adopted', async () => {
  expect(await verdicts('gatehouse', [{ token: jwt(access()), idToken: jwt(id()) }])).toEqual([null]);
});

test('an access token bound to a DPoP key, typed `DPoP` as Keycloak types it, is adopted; `DPoP` without a binding is not', async () => {
  const bound = access('gatehouse', { typ: 'DPoP', cnf: { jkt: 'aBcD' } });
  const unbound = access('gatehouse', { typ: 'DPoP' });
  expect(
    await verdicts('gatehouse', [
      { token: jwt(bound), idToken: null },
      { token: jwt(unbound), idToken: null },
    ]),
  ).toEqual([null, 'access token: typ "DPoP", not "Bearer"']);
});

test('an ID token, another client’s token or an access token in the ID token’s place is never adopted', async () => {
  const sets: Set[] = [
    // the session's own ID token (signed by the realm, aud this client) offered as the access token
    { token: jwt(id()), idToken: null },
    { token: jwt(access('gatehouse', { typ: 'Refresh' })), idToken: null },
    // a token of another client of the realm (its aud may name the same APIs)
    { token: jwt(access('gatehouse', { azp: 'reports' })), idToken: null },
    { token: jwt(access('gatehouse', { azp: undefined })), idToken: null },
    // an access token whose aud names this client, offered as the ID token
    { token: jwt(access()), idToken: jwt(access('gatehouse', { aud: CLIENT })) },
    { token: jwt(access()), idToken: jwt(id({ azp: 'reports' })) },
  ];
  expect(await verdicts('gatehouse', sets)).toEqual([
    'access token: typ "ID", not "Bearer"',
    'access token: typ "Refresh", not "Bearer"',
    'access token: issued to the client "reports", not gatehouse-shell',
    'access token: issued to no client (no azp), not gatehouse-shell',
    'ID token: typ "Bearer", not "ID"',
    'ID token: issued to the client "reports", not gatehouse-shell',
  ]);
});

test('only the algorithms the realm publishes are accepted: PS256 with its RS256 key, HS256 and none are refused', async () => {
  // realm "bare" names no algorithm on its key: RS256, OpenID Connect's default, and nothing else
  const [rs256, ps256] = await verdicts('bare', [
    { token: jwt(access('bare')), idToken: null },
    { token: jwt(access('bare'), 'PS256'), idToken: null },
  ]);
  expect({ rs256, ps256 }).toEqual({
    rs256: null,
    ps256: 'access token: signed with PS256, which the provider does not publish (it publishes RS256)',
  });
  expect(
    await verdicts('gatehouse', [
      { token: jwt(access(), 'HS256'), idToken: null },
      { token: jwt(access(), 'none'), idToken: null },
    ]),
  ).toEqual([
    'access token: signed with HS256, which is never accepted (asymmetric algorithms only)',
    'access token: signed with none, which is never accepted (asymmetric algorithms only)',
  ]);
});
