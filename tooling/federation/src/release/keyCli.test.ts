import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runReleaseKeyCli } from './keyCli';
import { writeRelease } from './sign';
import type { ReleasePublicKey } from './files';
import { verifyRelease } from './verify';

// `gatehouse-release-key <remote>` (`npm run release-key` here): the private key to a 0600 file that git ignores, the
// public key printed as the registry's `signingKeys` entry; a key is never overwritten (decisions/0117).

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-release-key-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

async function run(argv: string[], cwd = work) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReleaseKeyCli(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('writes the private key (0600) and prints the public key to pin, which verifies what the private key signs', async () => {
  const result = await run(['billing']);
  expect(result).toMatchObject({ code: 0, err: '' });
  const file = path.join(work, 'billing.release-key.pem');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  const snippet = /"signingKeys": (\[.*\])/.exec(result.out)?.[1];
  const [pinned] = JSON.parse(snippet ?? '[]') as ReleasePublicKey[];
  expect(pinned).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  expect(pinned).not.toHaveProperty('d');
  expect(result.out).not.toContain('PRIVATE KEY');

  fs.writeFileSync(path.join(work, 'mf-manifest.json'), '{}');
  await writeRelease(work, 'billing', { env: { GATEHOUSE_RELEASE_KEY_FILE: file } });
  const release = JSON.parse(fs.readFileSync(path.join(work, 'mf-release.json'), 'utf8')) as unknown;
  expect(await verifyRelease(release, [pinned!], { name: 'billing' })).toMatchObject({ ok: true, keyId: pinned!.kid });
});

test('never overwrites a key, and refuses a name that is not a federation name', async () => {
  expect((await run(['billing'])).code).toBe(0);
  const before = fs.readFileSync(path.join(work, 'billing.release-key.pem'), 'utf8');
  expect(await run(['billing'])).toMatchObject({ code: 1, err: expect.stringContaining('a release key is never overwritten') });
  expect(fs.readFileSync(path.join(work, 'billing.release-key.pem'), 'utf8')).toBe(before);
  expect(await run(['../etc'])).toMatchObject({ code: 2 });
  expect(await run([])).toMatchObject({ code: 2 });
});

test('refuses to write the key where git would commit it, and writes it where .gitignore covers it', async () => {
  spawnSync('git', ['init', '-q'], { cwd: work });
  expect(await run(['billing'])).toMatchObject({ code: 1, err: expect.stringContaining('not git-ignored') });
  expect(fs.existsSync(path.join(work, 'billing.release-key.pem'))).toBe(false);
  fs.writeFileSync(path.join(work, '.gitignore'), '*.release-key.pem\n');
  expect(await run(['billing'])).toMatchObject({ code: 0 });
});
