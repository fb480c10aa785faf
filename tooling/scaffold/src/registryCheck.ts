import { spawnSync } from 'node:child_process';
import { readUrl } from '@gatehouse/contract-check';

/** What a registry said when asked for the package a remote cannot do without. */
export type RegistryAnswer =
  | { readonly kind: 'has' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'no-version'; readonly versions: readonly string[] }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** The package the check asks for: every remote imports it, and the three are published together. */
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
  let versions: string[];
  try {
    versions = Object.keys((JSON.parse(body) as { versions?: Record<string, unknown> }).versions ?? {});
  } catch {
    return { kind: 'unreachable', reason: `${url} did not answer with a package document (not JSON)` };
  }
  return versions.includes(version) ? { kind: 'has' } : { kind: 'no-version', versions };
}

/** Which registry `npm install` in `cwd` takes @gatehouse packages from: the scope's, else the default one. */
export function configuredRegistry(cwd: string): string {
  const get = (key: string) => spawnSync('npm', ['config', 'get', key], { cwd, encoding: 'utf8' }).stdout.trim();
  const scoped = get('@gatehouse:registry');
  return scoped && scoped !== 'undefined' ? scoped : get('registry') || 'https://registry.npmjs.org/';
}

/**
 * The refusal when the registry cannot give the packages: what it answered and the two commands that make them
 * available (run in a Gatehouse checkout). Null when it has them, or when it could not be asked (npm install
 * will say why; the scaffold does not refuse on a network it cannot judge).
 */
export function registryProblem(answer: RegistryAnswer, registry: string, version: string): string | null {
  if (answer.kind === 'has' || answer.kind === 'unreachable') return null;
  const what =
    answer.kind === 'missing'
      ? `${registry} has no ${PROBED_PACKAGE} (E404), so \`npm install\` in the new repository would fail.`
      : `${registry} has ${PROBED_PACKAGE}, but not version ${version} (it has ${answer.versions.join(', ') || 'none'}).`;
  return (
    `${what} Make the Gatehouse packages available first, from a Gatehouse checkout, in one of two ways:\n` +
    `      npm run publish:packages -- --registry <your registry>    then scaffold again with --registry <your registry>\n` +
    `      npm run pack:packages -- <dir>                             then scaffold again with --packages <dir>`
  );
}
