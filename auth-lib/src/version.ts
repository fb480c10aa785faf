import { AuthError } from './errors';

/**
 * The version of this copy of auth-lib (kept equal to package.json's by a unit test; a literal rather
 * than a JSON import so every bundler handles it the same and nothing else from package.json ships).
 *
 * @example
 * document.documentElement.dataset.authLib = VERSION;
 */
export const VERSION = '1.0.0';

interface Parsed {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: string | null;
}

const SEMVER = /^\s*[v^~]?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/;

function parse(version: string): Parsed | null {
  const match = SEMVER.exec(version);
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease: match[4] ?? null };
}

function compare(a: Parsed, b: Parsed): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.patch !== b.patch) return a.patch - b.patch;
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === null) return 1; // 1.0.0 > 1.0.0-rc.1
  if (b.prerelease === null) return -1;
  return a.prerelease < b.prerelease ? -1 : 1;
}

/**
 * Whether `provided` satisfies `required` the way a caret range does (`^required`): same major
 * (same minor too while the major is 0) and not older. A version that is not semver is never compatible.
 *
 * @example
 * isCompatibleVersion('1.4.2', '1.2.0'); // true
 * isCompatibleVersion('2.0.0', '1.2.0'); // false: a new major breaks the contract
 * isCompatibleVersion('1.1.0', '1.2.0'); // false: the remote needs something 1.2 added
 */
export function isCompatibleVersion(provided: string, required: string): boolean {
  const have = parse(provided);
  const want = parse(required);
  if (!have || !want) return false;
  if (have.major !== want.major) return false;
  if (want.major === 0 && have.minor !== want.minor) return false;
  return compare(have, want) >= 0;
}

/**
 * Throws AuthError('incompatible-version') unless `provided` satisfies `required`; the message says
 * which side to rebuild. For the shell's check of a remote's declared auth-lib version.
 *
 * @example
 * assertCompatibleVersion(VERSION, remote.authLibVersion, 'remote "reports"');
 */
export function assertCompatibleVersion(provided: string, required: string, who = 'this remote'): void {
  if (isCompatibleVersion(provided, required)) return;
  throw new AuthError(
    'incompatible-version',
    `${who} was built against @gatehouse/auth-lib ${required}, but the shell provides ${provided}. ` +
      `Rebuild ${who} against auth-lib ^${parse(provided) ? provided : '<the shell’s version>'} (or update the shell).`,
  );
}
