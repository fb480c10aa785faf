import { calculateJwkThumbprint, exportJWK, FlattenedSign, generateKeyPair } from 'jose';
import { integrityOf, type ReleasePublicKey } from '@gatehouse/federation/release';
import type { ReadResponse } from '../net/readUrl';
import type { Findings, Reader } from './providerChecks';
import { checkRemote } from './remoteChecks';

// The doctor reports whether a deployed remote's release verifies against the keys its registry entry pins
// (decisions/0117): signed by a pinned key, and the manifest and remote entry served are the files it signed. The
// release here is made with jose directly, as the documented JWS, not with the preset's own signer.

const SHELL = new URL('https://app.example.com/');
const MANIFEST_URL = 'https://profile.example.com/mf-manifest.json';
const MANIFEST = JSON.stringify({ name: 'profile', metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } } });
const ENTRY = 'var profile = "the remote entry";';

async function teamKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const { x, y } = await exportJWK(publicKey);
  const pinned = { kty: 'EC', crv: 'P-256', x: x!, y: y! } as const;
  return { privateKey, pinned: pinned as ReleasePublicKey, kid: await calculateJwkThumbprint(pinned) };
}

async function release(key: Awaited<ReturnType<typeof teamKey>>, files: Record<string, string>, name = 'profile') {
  const listed: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) listed[file] = await integrityOf(new TextEncoder().encode(text));
  const jws = await new FlattenedSign(new TextEncoder().encode(JSON.stringify({ version: 1, name, files: listed })))
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'gatehouse-release+json' })
    .sign(key.privateKey);
  return JSON.stringify(jws);
}

function reader(served: Record<string, string | undefined>): Reader {
  return async (url): Promise<ReadResponse> => {
    const body = served[url];
    const headers = { 'access-control-allow-origin': SHELL.origin, 'cache-control': 'no-cache' };
    return body === undefined ? { url, status: 404, headers, body: '' } : { url, status: 200, headers, body };
  };
}

async function doctor(served: Record<string, string | undefined>, signingKeys?: ReleasePublicKey[]): Promise<Findings> {
  const findings: Findings = { problems: [], passed: [] };
  const files = { [MANIFEST_URL]: MANIFEST, 'https://profile.example.com/remoteEntry.js': ENTRY, ...served };
  await checkRemote(reader(files), SHELL, { name: 'profile', manifest: MANIFEST_URL, ...(signingKeys ? { signingKeys } : {}) }, findings);
  return findings;
}

const RELEASE_URL = 'https://profile.example.com/mf-release.json';
const releaseProblems = (findings: Findings) => findings.problems.filter((problem) => problem.code === 'DOCTOR-RELEASE');

test('a release signed by a pinned key, with the manifest and remote entry it signed, passes', async () => {
  const key = await teamKey();
  const findings = await doctor({ [RELEASE_URL]: await release(key, { 'mf-manifest.json': MANIFEST, 'remoteEntry.js': ENTRY }) }, [
    key.pinned,
  ]);
  expect(releaseProblems(findings)).toEqual([]);
  expect(findings.passed).toContain(
    `Remote profile's release verifies against its pinned key ${key.kid}, and mf-manifest.json and remoteEntry.js are the files it signed.`,
  );
});

test('a remote entry changed after signing (one byte) is reported, with what to do', async () => {
  const key = await teamKey();
  const signed = await release(key, { 'mf-manifest.json': MANIFEST, 'remoteEntry.js': ENTRY });
  const findings = await doctor({ [RELEASE_URL]: signed, 'https://profile.example.com/remoteEntry.js': ENTRY.replace('the', 'thE') }, [
    key.pinned,
  ]);
  expect(releaseProblems(findings)).toEqual([
    expect.objectContaining({
      what: expect.stringContaining('remoteEntry.js is not the file the release of "profile" signed'),
      breaks: expect.stringContaining('refuses to run profile'),
      fix: expect.stringContaining('find out who did'),
    }),
  ]);
});

test('a release signed by a key the registry does not pin is reported, naming the fix', async () => {
  const [ours, theirs] = await Promise.all([teamKey(), teamKey()]);
  const findings = await doctor({ [RELEASE_URL]: await release(theirs, { 'mf-manifest.json': MANIFEST, 'remoteEntry.js': ENTRY }) }, [
    ours.pinned,
  ]);
  expect(releaseProblems(findings)).toEqual([
    expect.objectContaining({
      what: expect.stringContaining(`signed by key ${theirs.kid}`),
      fix: expect.stringContaining('"signingKeys"'),
    }),
  ]);
});

test('no mf-release.json, or an unsigned one, where keys are pinned is reported', async () => {
  const key = await teamKey();
  expect(releaseProblems(await doctor({}, [key.pinned]))).toEqual([
    expect.objectContaining({
      what: expect.stringContaining('mf-release.json (https://profile.example.com/mf-release.json) answered HTTP 404'),
    }),
  ]);
  const { payload } = JSON.parse(await release(key, { 'mf-manifest.json': MANIFEST })) as { payload: string };
  expect(releaseProblems(await doctor({ [RELEASE_URL]: JSON.stringify({ payload }) }, [key.pinned]))).toEqual([
    expect.objectContaining({ what: expect.stringContaining('is not signed'), fix: expect.stringContaining('GATEHOUSE_RELEASE_KEY') }),
  ]);
});

test('a remote that pins no keys is not checked for a release', async () => {
  const findings = await doctor({});
  expect(releaseProblems(findings)).toEqual([]);
  expect(findings.passed.join('\n')).not.toContain('release');
});
