import { readUrl } from '@gatehouse/contract-check';

/**
 * What the lockfile of a remote's own repository records for a Gatehouse package from the registry: the version, the
 * tarball's address and its digest (`dist.integrity`), so `npm ci` installs exactly the bytes the scaffold was shown,
 * and what npm's tree needs of it (its dependencies, peers, bins, engines).
 */
export interface PinnedEntry {
  readonly version: string;
  readonly resolved: string;
  readonly integrity: string;
  readonly [field: string]: unknown;
}

/** What a registry said when asked for a package a remote cannot do without. */
export type RegistryAnswer =
  | { readonly kind: 'has'; readonly pinned?: PinnedEntry }
  | { readonly kind: 'missing' }
  | { readonly kind: 'no-version'; readonly versions: readonly string[] }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** The package the check asks for first: every remote imports it, and the four are published together. */
export const PROBED_PACKAGE = '@gatehouse/auth-lib';

/**
 * Asks `registry` for `pkg`'s document (npm's abbreviated form, as `npm install` asks) with the contract check's
 * bounded reader: 10 s for the whole exchange, at most 2 MB. A 404 is the E404 `npm install` would fail with.
 */
export async function askRegistry(registry: string, pkg: string, version: string): Promise<RegistryAnswer> {
  const url = `${registry.replace(/\/?$/, '/')}${pkg.replace('/', '%2f')}`;
  let status: number;
  let body: string;
  try {
    ({ status, body } = await readUrl(url, { headers: { accept: 'application/vnd.npm.install-v1+json' } }));
  } catch (error) {
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
  if (status === 404) return { kind: 'missing' };
  if (status !== 200) return { kind: 'unreachable', reason: `${url} answered HTTP ${status}` };
  let documents: Record<string, Record<string, unknown>>;
  try {
    documents = (JSON.parse(body) as { versions?: Record<string, Record<string, unknown>> }).versions ?? {};
  } catch {
    return { kind: 'unreachable', reason: `${url} did not answer with a package document (not JSON)` };
  }
  const document = Object.hasOwn(documents, version) ? documents[version] : undefined;
  if (document === undefined) return { kind: 'no-version', versions: Object.keys(documents) };
  const pinned = pinnedEntry(version, document);
  return pinned === null ? { kind: 'has' } : { kind: 'has', pinned };
}

/** The lockfile entry of one version's document (npm's abbreviated form), or null without a tarball and its digest. */
function pinnedEntry(version: string, document: Record<string, unknown>): PinnedEntry | null {
  const dist = document['dist'] as { tarball?: unknown; integrity?: unknown } | undefined;
  if (typeof dist?.tarball !== 'string' || typeof dist.integrity !== 'string' || !/^sha512-/.test(dist.integrity)) return null;
  const entry: Record<string, unknown> = { version, resolved: dist.tarball, integrity: dist.integrity };
  for (const field of ['license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'bin', 'engines'])
    if (document[field] !== undefined) entry[field] = document[field];
  return entry as PinnedEntry;
}

/**
 * The refusal when the registry cannot give a package with its digest: what it answered and the two commands that
 * make the packages available (run in a Gatehouse checkout). Null when it has the version with a `sha512` integrity.
 * A registry that could not be asked is a refusal too: without its answer the lockfile could pin nothing.
 */
export function registryProblem(answer: RegistryAnswer, registry: string, version: string, pkg: string = PROBED_PACKAGE): string | null {
  if (answer.kind === 'has' && answer.pinned !== undefined) return null;
  if (answer.kind === 'has')
    return (
      `${registry} has ${pkg} ${version} but gives no sha512 integrity (dist.integrity) for it, so package-lock.json ` +
      'could not pin what `npm ci` installs. Use a registry that records it (npm, Verdaccio, Artifactory, GitHub Packages do), ' +
      'or scaffold with --packages <dir> (`npm run pack:packages -- <dir>` in a Gatehouse checkout).'
    );
  if (answer.kind === 'unreachable')
    return (
      `${registry} could not be asked for ${pkg} (${answer.reason}), so package-lock.json could not pin the Gatehouse packages. ` +
      'Scaffold again once it answers, or with --packages <dir> (`npm run pack:packages -- <dir>` in a Gatehouse checkout).'
    );
  const what =
    answer.kind === 'missing'
      ? `${registry} has no ${pkg} (E404), so \`npm install\` in the new repository would fail.`
      : `${registry} has ${pkg}, but not version ${version} (it has ${answer.versions.join(', ') || 'none'}).`;
  return (
    `${what} Make the Gatehouse packages available first, from a Gatehouse checkout, in one of two ways:\n` +
    `      npm run publish:packages -- --registry <your registry>    then scaffold again with --registry <your registry>\n` +
    `      npm run pack:packages -- <dir>                             then scaffold again with --packages <dir>`
  );
}
