/** @jest-environment node */
// Security round (decisions/0117): a remote whose registry entry pins signing keys runs only a release that verifies.
// Each test is one way a release could be swapped or forged between the team's build and the visitor's browser.
import { integrityOf, type ReleaseFile, type ReleasePublicKey } from '@gatehouse/federation/release';
import { calculateJwkThumbprint, exportJWK, FlattenedSign, generateKeyPair, type CryptoKey } from 'jose';
import type { RemoteConfig } from '../config/types';
import { FailureLog } from './FailureLog';
import { MAX_STATEMENT_BYTES, ReleaseGate, type GateRefusal } from './ReleaseGate';
import { RemoteLoadError } from './RemoteLoadError';
import { RemoteRegistry, type FederationRuntime } from './RemoteRegistry';
import { RemoteReleases } from './RemoteReleases';
import { RemoteTimeline } from './RemoteTimeline';
import { RetryBackoff } from './RetryBackoff';

const ORIGIN = 'http://localhost:4001';
const MANIFEST = `${ORIGIN}/mf-manifest.json`;
const MANIFEST_TEXT = JSON.stringify({ name: 'profile', metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } } });
const FILES: Record<string, string> = {
  'mf-manifest.json': MANIFEST_TEXT,
  'remoteEntry.js': 'var profile = 1;',
  'static/js/App.1234.js': 'window.app = 1;',
  'static/css/App.1234.css': 'p{}',
};

interface Team {
  readonly pinned: ReleasePublicKey;
  readonly sign: (statement: object, header?: Record<string, unknown>) => Promise<ReleaseFile>;
}

async function team(): Promise<Team> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  const pinned = { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y!, kid, alg: 'ES256', use: 'sig' } as const;
  const sign = async (statement: object, header: Record<string, unknown> = {}) => {
    const jws = await new FlattenedSign(new TextEncoder().encode(JSON.stringify(statement)))
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'gatehouse-release+json', ...header })
      .sign(privateKey as CryptoKey);
    return { protected: jws.protected!, payload: jws.payload, signature: jws.signature };
  };
  return { pinned, sign };
}

async function statementOf(files: Record<string, string>, name = 'profile') {
  const listed: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) listed[file] = await integrityOf(new TextEncoder().encode(text));
  return { version: 1, name, files: listed };
}

function remote(keys: readonly ReleasePublicKey[] | undefined): RemoteConfig {
  return {
    name: 'profile',
    manifest: MANIFEST,
    module: './App',
    route: '/profile',
    title: 'Profile',
    realmRoles: [],
    clientRoles: {},
    ...(keys ? { signingKeys: keys } : {}),
  };
}

/** The remote's server: what it serves now, and every URL asked. */
function server(files: Record<string, string | object | undefined>) {
  const asked: string[] = [];
  const fetch = async (url: string) => {
    asked.push(url);
    const file = new URL(url).pathname.slice(1);
    const body = files[file];
    if (body === undefined) return new Response('not found', { status: 404 });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 });
  };
  return { asked, fetch };
}

function gateFor(keys: readonly ReleasePublicKey[] | undefined, files: Record<string, string | object | undefined>, allowUnsigned = false) {
  const refusals: GateRefusal[] = [];
  const { fetch, asked } = server(files);
  const gate = new ReleaseGate(() => [remote(keys)], {
    fetch,
    allowUnsigned,
    onRefused: (refusal) => refusals.push(refusal),
    base: () => 'http://localhost:4000/',
  });
  return { gate, refusals, asked };
}

async function admit(gate: ReleaseGate, manifestText = MANIFEST_TEXT) {
  try {
    const response = await gate.admitManifest('profile', MANIFEST, new Response(manifestText, { status: 200 }));
    return { text: await response.text(), error: undefined };
  } catch (error) {
    return { text: undefined, error: error as RemoteLoadError };
  }
}

let owner: Team;
let other: Team;
beforeAll(async () => {
  [owner, other] = await Promise.all([team(), team()]);
});

describe('the release gate', () => {
  it('answers the runtime with the verified manifest bytes, and gives each listed file its signed integrity', async () => {
    const { gate, refusals } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    expect(await admit(gate)).toEqual({ text: MANIFEST_TEXT, error: undefined });
    expect(gate.integrityFor(`${ORIGIN}/remoteEntry.js`)).toEqual({
      remote: 'profile',
      integrity: await integrityOf(new TextEncoder().encode(FILES['remoteEntry.js'])),
    });
    expect(gate.integrityFor(`${ORIGIN}/static/css/App.1234.css`)).toMatchObject({
      remote: 'profile',
      integrity: expect.stringMatching(/^sha384-/),
    });
    expect(refusals).toEqual([]);
  });

  it('asks for the release statement while the manifest is still on its way, and measures the check once verified', async () => {
    const { gate, asked } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    performance.clearMeasures();
    let arrive: (response: Response) => void = () => undefined;
    const manifest = new Promise<Response>((resolve) => (arrive = resolve));
    const admitted = gate.admitManifest('profile', MANIFEST, manifest);
    await Promise.resolve();
    expect(asked).toEqual([`${ORIGIN}/mf-release.json`]);
    arrive(new Response(MANIFEST_TEXT, { status: 200 }));
    expect(await (await admitted).text()).toBe(MANIFEST_TEXT);
    expect(performance.getEntriesByName('gatehouse:release-verified profile', 'measure')).toHaveLength(1);
  });

  it('hands a manifest answered with an error status back untouched, refusing nothing', async () => {
    const { gate, refusals } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    const answer = await gate.admitManifest('profile', MANIFEST, Promise.resolve(new Response('gone', { status: 404 })));
    expect({ status: answer.status, text: await answer.text(), refusals }).toEqual({ status: 404, text: 'gone', refusals: [] });
  });

  it('leaves a remote that pins no key alone: its release is not even asked for', async () => {
    const { gate, asked } = gateFor(undefined, {});
    expect(await admit(gate)).toEqual({ text: MANIFEST_TEXT, error: undefined });
    expect(asked).toEqual([]);
    expect(gate.integrityFor(`${ORIGIN}/remoteEntry.js`)).toBeUndefined();
  });

  it('refuses a manifest with one byte changed from the one signed', async () => {
    const { gate, refusals } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    const { error } = await admit(gate, MANIFEST_TEXT.replace('profile', 'profilf'));
    expect(error).toBeInstanceOf(RemoteLoadError);
    expect(error?.code).toBe('release-unverified');
    expect(refusals.map((r) => r.reason)).toEqual(['hash-mismatch']);
    // and nothing of the remote may then be inserted
    expect(gate.integrityFor(`${ORIGIN}/remoteEntry.js`)).toMatchObject({ refusal: expect.any(RemoteLoadError) });
  });

  it.each([
    ['signed by another key', async () => other.sign(await statementOf(FILES)), 'unknown-key'],
    [
      'signed by another key under the pinned kid',
      async () => other.sign(await statementOf(FILES), { kid: owner.pinned.kid }),
      'bad-signature',
    ],
    ['with its signature removed', async () => ({ payload: (await owner.sign(await statementOf(FILES))).payload }), 'missing-signature'],
    ['of another remote', async () => owner.sign(await statementOf(FILES, 'reports')), 'wrong-name'],
    ['that is not a release at all', async () => ({ hello: 'world' }), 'malformed'],
    ['that is missing', async () => undefined, 'unavailable'],
  ])('refuses a release %s, before the runtime reads the manifest', async (_what, make, reason) => {
    const { gate, refusals } = gateFor([owner.pinned], { 'mf-release.json': await make() });
    const { text, error } = await admit(gate);
    expect(text).toBeUndefined();
    expect(error?.code).toBe('release-unverified');
    expect(error?.message).toContain(`(${reason})`);
    expect(refusals).toEqual([expect.objectContaining({ remote: 'profile', reason })]);
  });

  it('refuses a release statement that never ends, reading no more than its limit', async () => {
    let served = 0;
    const endless = new ReadableStream<Uint8Array>({
      // a task between chunks, as a network gives: a reader without a limit runs into jest's timeout, not forever
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        served += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const refusals: GateRefusal[] = [];
    const gate = new ReleaseGate(() => [remote([owner.pinned])], {
      fetch: async () => new Response(endless, { status: 200 }),
      onRefused: (refusal) => refusals.push(refusal),
      base: () => 'http://localhost:4000/',
    });
    const { text, error } = await admit(gate);
    expect({ text, code: error?.code }).toEqual({ text: undefined, code: 'release-unverified' });
    expect(refusals).toEqual([
      expect.objectContaining({ reason: 'unavailable', message: expect.stringContaining(`larger than ${MAX_STATEMENT_BYTES} bytes`) }),
    ]);
    expect(served).toBeLessThanOrEqual(MAX_STATEMENT_BYTES + 2 * 64 * 1024);
  });

  it('gives no integrity to a file a release names "__proto__" or "constructor" unless it lists it', async () => {
    const { gate } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    await admit(gate);
    for (const name of ['__proto__', 'constructor', 'toString'])
      expect(gate.integrityFor(`${ORIGIN}/${name}`)).toMatchObject({ refusal: expect.any(RemoteLoadError) });
  });

  it('runs an unsigned build only where the shell allows it (development), and says so', async () => {
    const unsigned = { payload: (await owner.sign(await statementOf(FILES))).payload };
    const production = gateFor([owner.pinned], { 'mf-release.json': unsigned });
    expect((await admit(production.gate)).error?.code).toBe('release-unverified');
    const development = gateFor([owner.pinned], { 'mf-release.json': unsigned }, true);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await admit(development.gate)).text).toBe(MANIFEST_TEXT);
    expect(development.gate.unsigned('profile')).toBe(true);
    expect(development.gate.integrityFor(`${ORIGIN}/remoteEntry.js`)).toEqual({ remote: 'profile', unchecked: true });
    // a bad signature is refused in development too
    const forged = gateFor([owner.pinned], { 'mf-release.json': await other.sign(await statementOf(FILES)) }, true);
    expect((await admit(forged.gate)).error?.code).toBe('release-unverified');
  });

  it('refuses a file the release does not list, and any file of the remote before its release verified', async () => {
    const { gate, refusals } = gateFor([owner.pinned], { 'mf-release.json': await owner.sign(await statementOf(FILES)) });
    expect(gate.integrityFor(`${ORIGIN}/remoteEntry.js`)).toMatchObject({ remote: 'profile', refusal: expect.any(RemoteLoadError) });
    await admit(gate);
    expect(gate.integrityFor(`${ORIGIN}/static/js/injected.js`)).toMatchObject({ refusal: expect.any(RemoteLoadError) });
    expect(refusals.map((r) => r.reason)).toEqual(['not-listed', 'not-listed']);
    // another origin's files are not the gate's concern
    expect(gate.integrityFor('http://localhost:4002/remoteEntry.js')).toBeUndefined();
  });

  it('refuses an ES module remote entry, which browsers load without integrity', async () => {
    const esm = JSON.stringify({ name: 'profile', metaData: { remoteEntry: { name: 'remoteEntry.js', type: 'module' } } });
    const { gate } = gateFor([owner.pinned], {
      'mf-release.json': await owner.sign(await statementOf({ ...FILES, 'mf-manifest.json': esm })),
    });
    const { error } = await admit(gate, esm);
    expect(error?.message).toContain('(unverifiable-module)');
  });

  it('verifies against either of two pinned keys while a key rotates, and not against an unpinned old one', async () => {
    const release = await other.sign(await statementOf(FILES));
    expect((await admit(gateFor([owner.pinned, other.pinned], { 'mf-release.json': release }).gate)).text).toBe(MANIFEST_TEXT);
    expect((await admit(gateFor([owner.pinned], { 'mf-release.json': release }).gate)).error?.code).toBe('release-unverified');
  });

  it('explains a file that failed to load when its bytes are not the signed ones', async () => {
    const files = { 'mf-release.json': await owner.sign(await statementOf(FILES)), 'static/js/App.1234.js': 'window.app = 2;' };
    const { gate } = gateFor([owner.pinned], files);
    await admit(gate);
    gate.loadFailed('profile', `${ORIGIN}/static/js/App.1234.js`);
    const explained = await gate.explain('profile');
    expect(explained?.code).toBe('release-unverified');
    expect(explained?.message).toContain('(hash-mismatch)');
    expect(await gate.explain('profile')).toBeUndefined(); // read once
  });
});

describe('the registry with the release gate', () => {
  it('fails only that remote, as release-unverified, with a telemetry event naming the reason', async () => {
    const failures = new FailureLog();
    const timeline = new RemoteTimeline();
    const events: unknown[] = [];
    timeline.on((event) => events.push(event));
    const { fetch } = server({ 'mf-manifest.json': MANIFEST_TEXT, 'mf-release.json': await other.sign(await statementOf(FILES)) });
    const gate = new ReleaseGate(() => [remote([owner.pinned])], {
      fetch,
      onRefused: (r) => timeline.releaseRefused(r.remote, r.reason, r.message),
      base: () => 'http://localhost:4000/',
    });
    const ran = jest.fn();
    const holder: { registry?: RemoteRegistry } = {};
    const runtime: FederationRuntime = {
      registerRemotes: jest.fn(),
      // as the federation runtime does: the manifest through the shell's fetch hook, then the entry
      loadRemote: async () => {
        await holder.registry!.fetchManifest(MANIFEST, {});
        ran();
        return { default: () => null };
      },
    };
    const registry = (holder.registry = new RemoteRegistry(
      [remote([owner.pinned])],
      runtime,
      failures,
      timeline,
      new RemoteReleases(fetch),
      new RetryBackoff(),
      gate,
    ));
    await expect(registry.load(remote([owner.pinned]))).rejects.toMatchObject({ code: 'release-unverified' });
    expect(ran).not.toHaveBeenCalled();
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'remoteReleaseRefused', remote: 'profile', reason: 'unknown-key' }),
        expect.objectContaining({ type: 'remotePhase', remote: 'profile', ok: false, reason: 'release-unverified' }),
      ]),
    );
  });
});
