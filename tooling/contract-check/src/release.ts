import {
  checkFile,
  RELEASE_FILE,
  verifyRelease,
  type ReleasePublicKey,
  type ReleaseRefusal,
  type ReleaseRefusalReason,
} from '@gatehouse/federation/release';

/**
 * Whether a remote's release verifies against the keys its registry entry pins (decisions/0117): the signature of
 * its `mf-release.json`, then the files given, compared with what the release signed. Shared by the doctor (a
 * deployed remote, over HTTP) and the contract check (a build on disk, against a deployed shell's registry).
 */
export interface ReleaseCheckInput {
  readonly name: string;
  /** the registry entry's `signingKeys` */
  readonly keys: readonly ReleasePublicKey[];
  /** the parsed `mf-release.json`, or undefined when there is none (with why, e.g. "answered HTTP 404") */
  readonly release: { readonly json: unknown } | { readonly missing: string };
  /** the files to compare (path from the manifest's folder → bytes, or why they could not be read) */
  readonly files: ReadonlyArray<{ readonly path: string; readonly bytes: Uint8Array | string }>;
}

export type ReleaseCheck =
  | { readonly ok: true; readonly keyId: string; readonly checked: readonly string[] }
  | { readonly ok: false; readonly reason: ReleaseRefusalReason | 'no-release'; readonly what: string; readonly fix: string };

const SIGN =
  "build it with the team's key in GATEHOUSE_RELEASE_KEY or GATEHOUSE_RELEASE_KEY_FILE (`npm run release-key -- <remote>` makes one)";

/** What to do about each refusal. */
function fixFor(reason: ReleaseRefusalReason | 'no-release', name: string): string {
  switch (reason) {
    case 'no-release':
      return `Deploy the whole build of ${name}, ${RELEASE_FILE} beside its mf-manifest.json; ${SIGN}.`;
    case 'missing-signature':
      return `Rebuild ${name} signed: ${SIGN}.`;
    case 'unknown-key':
      return `Sign ${name} with a key its registry entry pins, or add the new public key to "signingKeys" in config.json (two keys while one rotates).`;
    case 'bad-signature':
    case 'hash-mismatch':
    case 'not-listed':
      return `Deploy ${name}'s build as it was built and signed, all its files together; if nobody changed them, find out who did before anything else.`;
    case 'wrong-name':
      return `Register the manifest of ${name} under its own name, or sign each remote's release with its own key.`;
    default:
      return `Rebuild ${name} with the current @gatehouse/federation preset and deploy its mf-release.json unchanged.`;
  }
}

export async function checkRelease(input: ReleaseCheckInput): Promise<ReleaseCheck> {
  const { name } = input;
  if ('missing' in input.release)
    return {
      ok: false,
      reason: 'no-release',
      what: `${name} pins signing keys, but its ${RELEASE_FILE} ${input.release.missing}.`,
      fix: fixFor('no-release', name),
    };
  /** A refusal of the verifier, as the check reports it. */
  const refused = ({ reason, message }: ReleaseRefusal): ReleaseCheck => ({
    ok: false,
    reason,
    what: `${name}'s release is refused: ${message}.`,
    fix: fixFor(reason, name),
  });
  const verified = await verifyRelease(input.release.json, input.keys, { name });
  if (!verified.ok) return refused(verified);
  for (const file of input.files) {
    const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
    const checked = await checkFile(verified, file.path, bytes);
    if (!checked.ok) return refused(checked);
  }
  return { ok: true, keyId: verified.keyId, checked: input.files.map((file) => file.path) };
}
