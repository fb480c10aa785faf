import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateReleaseKey, importPrivateKey, releaseKeyFromEnv, signRelease, writeRelease, type ReleaseSigningKey } from './sign';
import {
  integrityFor,
  integrityForUrl,
  releasePathOf,
  type ReleaseFile,
  type ReleasePublicKey,
  type ReleaseStatement,
  type VerifiedRelease,
} from './files';
import { checkFile, integrityOf, readStatement, verifyRelease } from './verify';

// A release is signed by its team's key at build time and the shell runs only what verifies against the keys its
// registry pins (decisions/0117). Each test here is one way a release could be forged or swapped.

const bytes = (text: string) => new TextEncoder().encode(text);

async function team(): Promise<{ signing: ReleaseSigningKey; pinned: ReleasePublicKey; pem: string }> {
  const { privatePem, publicJwk } = await generateReleaseKey();
  return { signing: await importPrivateKey(privatePem, 'test'), pinned: publicJwk, pem: privatePem };
}

async function statementOf(files: Record<string, string>, name = 'profile'): Promise<ReleaseStatement> {
  const listed: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) listed[file] = await integrityOf(bytes(text));
  return { version: 1, name, files: listed };
}

const FILES = { 'mf-manifest.json': '{"name":"profile"}', 'remoteEntry.js': 'var profile;', 'static/js/App.1234abcd.js': 'export {}' };
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ReleaseStatement;
const encode = (statement: ReleaseStatement) => Buffer.from(JSON.stringify(statement)).toString('base64url');

describe('a release signed by the team key the registry pins', () => {
  let key: Awaited<ReturnType<typeof team>>;
  let release: ReleaseFile;
  beforeAll(async () => {
    key = await team();
    release = await signRelease(await statementOf(FILES), key.signing);
  });

  it('verifies, and gives each listed file its integrity', async () => {
    const verified = await verifyRelease(release, [key.pinned], { name: 'profile' });
    expect(verified).toMatchObject({ ok: true, keyId: key.pinned.kid });
    const ok = verified as VerifiedRelease;
    expect(integrityFor(ok, 'remoteEntry.js')).toEqual({ ok: true, integrity: await integrityOf(bytes('var profile;')) });
    expect(await checkFile(ok, 'static/js/App.1234abcd.js', bytes('export {}'))).toMatchObject({ ok: true });
  });

  it('refuses a file whose bytes differ by one from what was signed', async () => {
    const verified = (await verifyRelease(release, [key.pinned])) as VerifiedRelease;
    const changed = await checkFile(verified, 'remoteEntry.js', bytes('var profilf;'));
    expect(changed).toMatchObject({ ok: false, reason: 'hash-mismatch' });
    expect((changed as { message: string }).message).toContain('remoteEntry.js is not the file the release of "profile" signed');
  });

  it.each(Object.keys(FILES))('refuses the statement when one character of the hash of %s is changed', async (file) => {
    const statement = decode(release.payload);
    const hash = statement.files[file] as string;
    const flipped = `${hash.slice(0, 10)}${hash[10] === 'A' ? 'B' : 'A'}${hash.slice(11)}`;
    const tampered = { ...release, payload: encode({ ...statement, files: { ...statement.files, [file]: flipped } }) };
    expect(await verifyRelease(tampered, [key.pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a file the release does not list, and a path outside the manifest folder has none', async () => {
    const verified = (await verifyRelease(release, [key.pinned])) as VerifiedRelease;
    expect(integrityFor(verified, 'evil.js')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(integrityFor(verified, '__proto__')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(releasePathOf('https://cdn.example/profile/static/js/a.js', 'https://cdn.example/profile/mf-manifest.json')).toBe(
      'static/js/a.js',
    );
    const manifest = 'https://cdn.example/profile/mf-manifest.json';
    expect(integrityForUrl(verified, manifest, 'https://cdn.example/profile/remoteEntry.js')).toEqual({
      ok: true,
      integrity: await integrityOf(bytes('var profile;')),
    });
    expect(integrityForUrl(verified, manifest, 'https://cdn.example/profile/evil.js')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(integrityForUrl(verified, manifest, 'https://evil.example/profile/remoteEntry.js')).toMatchObject({
      ok: false,
      reason: 'not-listed',
    });
    expect(releasePathOf('https://cdn.example/other/a.js', 'https://cdn.example/profile/mf-manifest.json')).toBeUndefined();
    expect(releasePathOf('https://evil.example/profile/a.js', 'https://cdn.example/profile/mf-manifest.json')).toBeUndefined();
    expect(releasePathOf('https://cdn.example/profile/%2e%2e/a.js', 'https://cdn.example/profile/mf-manifest.json')).toBeUndefined();
  });

  it("refuses another remote's release signed by the same key, when the name is given", async () => {
    const other = await signRelease(await statementOf(FILES, 'admin'), key.signing);
    expect(await verifyRelease(other, [key.pinned], { name: 'profile' })).toMatchObject({ ok: false, reason: 'wrong-name' });
  });
});

describe('what is refused', () => {
  it('a statement signed by a key the registry does not pin (another team, an attacker), naming both', async () => {
    const [ours, theirs] = await Promise.all([team(), team()]);
    const forged = await signRelease(await statementOf(FILES), theirs.signing);
    const verdict = await verifyRelease(forged, [ours.pinned]);
    expect(verdict).toMatchObject({ ok: false, reason: 'unknown-key' });
    expect((verdict as { message: string }).message).toContain(theirs.pinned.kid);
    expect((verdict as { message: string }).message).toContain(ours.pinned.kid);
  });

  it("another key's signature under the pinned key's id", async () => {
    const [ours, theirs] = await Promise.all([team(), team()]);
    const forged = await signRelease(await statementOf(FILES), { ...theirs.signing, keyId: ours.signing.keyId });
    expect(await verifyRelease(forged, [ours.pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('a release whose signature was removed, or never made (a build without a key)', async () => {
    const { signing, pinned } = await team();
    const signed = await signRelease(await statementOf(FILES), signing);
    const { signature: _s, protected: _p, ...stripped } = signed;
    expect(await verifyRelease(stripped, [pinned])).toMatchObject({ ok: false, reason: 'missing-signature' });
    const unsigned = await signRelease(await statementOf(FILES), undefined);
    expect(await verifyRelease(unsigned, [pinned])).toMatchObject({ ok: false, reason: 'missing-signature' });
    expect(await verifyRelease({ ...signed, signature: '' }, [pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(await verifyRelease({ payload: signed.payload, protected: signed.protected }, [pinned])).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('malformed statements, with what is wrong', async () => {
    const { pinned } = await team();
    expect(await verifyRelease(null, [pinned])).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await verifyRelease({ payload: 'not json!' }, [pinned])).toMatchObject({ ok: false, reason: 'malformed' });
    const bad = { version: 1, name: 'profile', files: { 'a.js': 'sha256-abc' } };
    expect(readStatement({ payload: Buffer.from(JSON.stringify(bad)).toString('base64url') })).toMatchObject({
      ok: false,
      message: expect.stringContaining('integrity of a.js'),
    });
    expect(readStatement({ payload: encode({ version: 2 } as never) })).toMatchObject({ reason: 'malformed' });
  });

  it('any release when no key is pinned (verifying needs a key)', async () => {
    const { signing } = await team();
    expect(await verifyRelease(await signRelease(await statementOf(FILES), signing), [])).toMatchObject({ ok: false, reason: 'no-keys' });
  });

  it('a signature made with another algorithm or type (a token, an HMAC)', async () => {
    const { signing, pinned } = await team();
    const release = await signRelease(await statementOf(FILES), signing);
    const header = JSON.parse(Buffer.from(release.protected as string, 'base64url').toString('utf8')) as Record<string, string>;
    const rewrite = (changes: Record<string, string>) => Buffer.from(JSON.stringify({ ...header, ...changes })).toString('base64url');
    expect(await verifyRelease({ ...release, protected: rewrite({ alg: 'HS256' }) }, [pinned])).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(await verifyRelease({ ...release, protected: rewrite({ typ: 'JWT' }) }, [pinned])).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    // a header that changes how the payload is read (RFC 7797's unencoded payload)
    const unencoded = { ...release, protected: rewrite({ crit: ['b64'], b64: false } as unknown as Record<string, string>) };
    expect(await verifyRelease(unencoded, [pinned])).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('a signature cut short, lengthened, in DER form, or moved onto another payload', async () => {
    const { signing, pinned } = await team();
    const release = await signRelease(await statementOf(FILES), signing);
    const raw = Buffer.from(release.signature as string, 'base64url');
    expect(raw).toHaveLength(64); // ES256 in a JWS: r‖s, 32 bytes each
    const withSignature = (bytes: Buffer) => ({ ...release, signature: bytes.toString('base64url') });
    expect(await verifyRelease(withSignature(raw.subarray(0, 63)), [pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(await verifyRelease(withSignature(Buffer.concat([raw, Buffer.from([0])])), [pinned])).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    // the DER form other ECDSA APIs produce: SEQUENCE { INTEGER r, INTEGER s }
    const integer = (part: Buffer) =>
      part[0]! & 0x80 ? Buffer.concat([Buffer.from([0x02, 33, 0]), part]) : Buffer.concat([Buffer.from([0x02, 32]), part]);
    const body = Buffer.concat([integer(raw.subarray(0, 32)), integer(raw.subarray(32))]);
    const der = Buffer.concat([Buffer.from([0x30, body.length]), body]);
    expect(await verifyRelease(withSignature(der), [pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
    // a valid signature of one statement on another statement's payload
    const other = await signRelease(await statementOf({ ...FILES, 'remoteEntry.js': 'var evil = 1;' }), signing);
    expect(await verifyRelease({ ...release, payload: other.payload }, [pinned])).toMatchObject({ ok: false, reason: 'bad-signature' });
  });
});

describe('key rotation', () => {
  it('accepts a release signed by the new key while old and new are pinned, and the old one until it is unpinned', async () => {
    const [old, fresh] = await Promise.all([team(), team()]);
    const byNew = await signRelease(await statementOf(FILES), fresh.signing);
    const byOld = await signRelease(await statementOf(FILES), old.signing);
    expect(await verifyRelease(byNew, [old.pinned, fresh.pinned])).toMatchObject({ ok: true, keyId: fresh.pinned.kid });
    expect(await verifyRelease(byOld, [old.pinned, fresh.pinned])).toMatchObject({ ok: true, keyId: old.pinned.kid });
    expect(await verifyRelease(byOld, [fresh.pinned])).toMatchObject({ ok: false, reason: 'unknown-key' });
  });
});

describe('the build side', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-release-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  function build(): string {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'static', 'css'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{}');
    fs.writeFileSync(path.join(dir, 'remoteEntry.js'), 'var x;');
    fs.writeFileSync(path.join(dir, 'static', 'css', 'app.css'), 'a{}');
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    fs.writeFileSync(path.join(dir, 'config.json'), '{}');
    return dir;
  }

  it('signs with the key file the environment names, listing the manifest, the scripts and stylesheets only', async () => {
    const { pem, pinned } = await team();
    const keyFile = path.join(tmp(), 'key.pem');
    fs.writeFileSync(keyFile, pem, { mode: 0o600 });
    const dir = build();
    const written = await writeRelease(dir, 'profile', { env: { GATEHOUSE_RELEASE_KEY_FILE: keyFile } });
    expect(written).toMatchObject({ signed: true, keyId: pinned.kid });
    const release = JSON.parse(fs.readFileSync(path.join(dir, 'mf-release.json'), 'utf8')) as unknown;
    const verified = (await verifyRelease(release, [pinned], { name: 'profile' })) as VerifiedRelease;
    expect(Object.keys(verified.statement.files)).toEqual(['mf-manifest.json', 'remoteEntry.js', 'static/css/app.css']);
    expect(fs.readFileSync(path.join(dir, 'mf-release.json'), 'utf8')).not.toContain('PRIVATE');
  });

  it('writes an unsigned statement without a key and says so once', async () => {
    const warn = jest.fn();
    const first = await writeRelease(build(), 'profile', { env: {}, warn });
    await writeRelease(build(), 'profile', { env: {}, warn });
    expect(first).toMatchObject({ signed: false });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('unsigned (a dev build): set GATEHOUSE_RELEASE_KEY or GATEHOUSE_RELEASE_KEY_FILE');
  });

  it('fails, saying why, on a named key it cannot use, never falling back to unsigned', async () => {
    await expect(releaseKeyFromEnv({ GATEHOUSE_RELEASE_KEY: 'nonsense' })).rejects.toThrow(
      /GATEHOUSE_RELEASE_KEY cannot be used: neither a PKCS #8 PEM/,
    );
    await expect(releaseKeyFromEnv({ GATEHOUSE_RELEASE_KEY_FILE: '/nonexistent/key.pem' })).rejects.toThrow(/cannot be read \(ENOENT\)/);
    await expect(releaseKeyFromEnv({ GATEHOUSE_RELEASE_KEY: 'a', GATEHOUSE_RELEASE_KEY_FILE: 'b' })).rejects.toThrow(/not both/);
    const { pinned } = await team();
    await expect(releaseKeyFromEnv({ GATEHOUSE_RELEASE_KEY: JSON.stringify(pinned) })).rejects.toThrow(/not an EC P-256 private JWK/);
  });

  it('reads a private JWK from the environment too', async () => {
    const { signing, pinned } = await team();
    const { exportJWK } = await import('jose');
    const key = await releaseKeyFromEnv({ GATEHOUSE_RELEASE_KEY: JSON.stringify(await exportJWK(signing.key)) });
    expect(key?.keyId).toBe(pinned.kid);
  });
});
