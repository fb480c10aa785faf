import fs from 'node:fs';
import path from 'node:path';
import { readStatement, RELEASE_FILE } from '@gatehouse/federation/release';
import { checkRelease } from './release';
import type { RegistryEntry } from './shellOverHttp';

/**
 * The contract check's part of signed releases (decisions/0117): whether the remote's build (the `mf-release.json`
 * beside its manifest, and every file it lists, as on disk) verifies against the keys the deployed shell's registry
 * pins for it. One line for the report; not ok when the shell pins keys and the build would be refused.
 */
export async function buildReleaseCheck(manifestFile: string, entry: RegistryEntry): Promise<{ ok: boolean; line: string }> {
  const dist = path.dirname(manifestFile);
  const releaseFile = path.join(dist, RELEASE_FILE);
  const json = fs.existsSync(releaseFile) ? (JSON.parse(fs.readFileSync(releaseFile, 'utf8')) as unknown) : undefined;
  if (!entry.signingKeys) {
    const signed = json !== undefined && typeof (json as { signature?: unknown }).signature === 'string';
    return {
      ok: true,
      line: `Release: the registry pins no signing keys for "${entry.name}", so the shell does not check its releases${signed ? ` (this build is signed: pin its public key in "signingKeys")` : ''}.`,
    };
  }
  const statement = json === undefined ? undefined : readStatement(json);
  const listed = statement && !('ok' in statement) ? Object.keys(statement.files) : [];
  const absent = listed.filter((file) => !fs.existsSync(path.join(dist, file)));
  if (absent.length > 0)
    return {
      ok: false,
      line: `✗ Release: ${RELEASE_FILE} lists ${absent.join(', ')}, which ${dist} does not have.\n  Fix: build again (\`npm run build\`): the release and the files it lists are written together.`,
    };
  const files = listed.map((file) => ({ path: file, bytes: new Uint8Array(fs.readFileSync(path.join(dist, file))) }));
  const verdict = await checkRelease({
    name: entry.name,
    keys: entry.signingKeys,
    release: json === undefined ? { missing: `(${releaseFile}) does not exist` } : { json },
    files,
  });
  return verdict.ok
    ? {
        ok: true,
        line: `✓ Release: signed with the pinned key ${verdict.keyId}; its ${verdict.checked.length} files are the ones it signed.`,
      }
    : { ok: false, line: `✗ Release: ${verdict.what}\n  Fix: ${verdict.fix}` };
}
