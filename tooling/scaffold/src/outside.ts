import fs from 'node:fs';
import path from 'node:path';
import { overlayWithDevOrigin, writeOverlay } from './devOrigin';
import { apiOf, REMOTE_NAME, RESERVED, titleOf } from './plan';
import type { PinnedEntry } from './registryCheck';
import { seedLockfile } from './seedLockfile';
import { configSchemaPath, renderTemplate, TEMPLATE_DIR } from './template';
import { parsePort, registryUrlProblem, routeProblem, shellUrlProblem, titleProblem } from './values';
import { readWorkspace } from './workspace';

/** The files a remote in its own repository has on top of (or instead of) the in-repository template. */
export const OUTSIDE_TEMPLATE_DIR = path.join(__dirname, '..', 'template-outside');

/**
 * The Gatehouse packages such a remote installs: auth-lib, federation and the contract check, and the deployment
 * contract they share (@gatehouse/config: the config schema, its validators, the security headers), named too so
 * `--packages` installs it from its tarball like the others.
 */
export const PUBLISHED_PACKAGES = [
  '@gatehouse/auth-lib',
  '@gatehouse/config',
  '@gatehouse/federation',
  '@gatehouse/contract-check',
] as const;

export interface OutsideOptions {
  readonly name: string;
  /** the folder to create (must not exist, or be empty) */
  readonly dir: string;
  readonly title?: string | undefined;
  readonly route?: string | undefined;
  /** as typed (`--port`), or a number */
  readonly port?: number | string | undefined;
  /**
   * a folder of `npm pack` tarballs to depend on instead of the published versions: `file:` specs relative to
   * `dir`, so the repository installs wherever it is cloned, with the tarballs at that relative path
   */
  readonly packages?: string | undefined;
  /** the npm registry that has the @gatehouse packages: written to the new repository's `.npmrc` */
  readonly registry?: string | undefined;
  /** the deployed shell the CI's contract check runs against */
  readonly shellUrl?: string | undefined;
}

/**
 * What the check before anything is written found: a problem that refuses the command, or each Gatehouse package's
 * lockfile entry from the registry (its tarball and digest; none with --packages, whose tarballs are read instead).
 */
export type FirstCheck = { readonly problem: string } | { readonly pinned: Readonly<Record<string, PinnedEntry>> };

/**
 * Why an outside remote needs --registry or --packages: the safe source is never a default. This project does not
 * own the @gatehouse scope on the public npm registry, so whatever npm is configured with could serve anyone's code.
 */
export const SOURCE_REQUIRED =
  "--outside needs --registry <url> or --packages <dir>: the @gatehouse packages come from your organisation's registry " +
  '(`npm run publish:packages -- --registry <url>` in a Gatehouse checkout publishes them there) or from tarballs ' +
  '(`npm run pack:packages -- <dir>`), never from whatever registry npm is configured with — this project does not own ' +
  "the @gatehouse scope on the public npm registry, so a package of that name there may be anyone's.";

export type OutsideResult =
  | {
      readonly ok: true;
      /** in the new folder */
      readonly created: readonly string[];
      /** in this checkout (the realm overlay, so the dev provider accepts the remote) */
      readonly changed: readonly string[];
      readonly port: number;
      /** the registry entry for a shell's config.json (with the dev address) */
      readonly entry: { readonly name: string; readonly manifest: string; readonly route: string; readonly title: string };
      /** the `file:` paths (relative to the new repository) its package.json and lockfile name, with --packages */
      readonly tarballs: readonly string[];
    }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Writes a remote as a standalone repository at `options.dir`: the same app files as a remote inside
 * this repository, with a package.json that depends on the published Gatehouse packages (or packed
 * tarballs), its own tsconfig and jest settings, a README and a CI workflow. Nothing in this
 * repository changes; it only supplies the versions the shell pins. `checkFirst` runs once the options are
 * valid and before anything is written (the registry check): a problem it returns refuses the whole command, and the
 * entries it returns pin the Gatehouse packages (version, tarball, sha512 integrity) in the generated lockfile. With
 * --registry, a package it did not pin refuses the command: the lockfile never leaves one for npm to resolve.
 */
export async function newOutsideRemote(
  options: OutsideOptions,
  root: string,
  checkFirst?: () => Promise<FirstCheck>,
): Promise<OutsideResult> {
  const problems: string[] = [];
  if (!REMOTE_NAME.test(options.name))
    problems.push(`"${options.name}" is not a valid remote name: lower-case letters, digits and _ (e.g. "billing").`);
  else if (RESERVED.has(options.name)) problems.push(`"${options.name}" is reserved; choose another name.`);
  // the same checks as inside the repository: each value lands in generated code or a command line
  const title = options.title ?? titleOf(options.name);
  const route = options.route ?? `/${options.name.replace(/_/g, '-')}`;
  const port = options.port === undefined ? { port: 3004 } : parsePort(String(options.port));
  for (const problem of [
    titleProblem(title),
    routeProblem(route),
    'problem' in port ? port.problem : null,
    options.shellUrl === undefined ? null : shellUrlProblem(options.shellUrl),
    options.registry === undefined ? null : registryUrlProblem(options.registry),
    options.registry !== undefined && options.packages !== undefined
      ? '--registry and --packages exclude each other: install from a registry or from tarballs.'
      : null,
    options.registry === undefined && options.packages === undefined ? SOURCE_REQUIRED : null,
  ]) {
    if (problem) problems.push(problem);
  }
  if (fs.existsSync(options.dir) && fs.readdirSync(options.dir).length > 0)
    problems.push(`${options.dir} exists and is not empty; name a new folder.`);
  let gatehouse: Record<string, string> = {};
  try {
    gatehouse = gatehouseVersions(root, options.packages, options.dir);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  if (problems.length > 0 || 'problem' in port) return { ok: false, problems };
  const first = checkFirst ? await checkFirst() : { pinned: {} };
  if ('problem' in first) return { ok: false, problems: [first.problem] };
  const pinned: Record<string, PinnedEntry> = {};
  if (options.registry !== undefined) {
    for (const [pkg, version] of Object.entries(gatehouse)) {
      const entry = Object.hasOwn(first.pinned, pkg) ? first.pinned[pkg] : undefined;
      if (entry?.version !== version)
        return {
          ok: false,
          problems: [`${options.registry} gave no digest of ${pkg} ${version} to pin in package-lock.json; nothing was written.`],
        };
      pinned[pkg] = entry;
    }
  }

  const workspace = readWorkspace(root);
  const { identityProvider } = workspace.registry;
  let overlayText: string | null;
  try {
    overlayText = overlayWithDevOrigin(root, { realm: identityProvider.realm, clientId: identityProvider.clientId, port: port.port });
  } catch (error) {
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
  // the API its unit test calls (a shell's registry entry names the real one: `api`, docs/remote-teams.md)
  const api = apiOf(options.name, workspace);
  const values: Record<string, string | number> = {
    name: options.name,
    packageName: `${options.name.replace(/_/g, '-')}-remote`,
    title,
    route,
    port: port.port,
    identityProviderUrl: identityProvider.url,
    realm: identityProvider.realm,
    clientId: identityProvider.clientId,
    // no made-up default: without --shell-url the check asks for GATEHOUSE_SHELL_URL, and CI skips it with a warning
    ciShellUrl: options.shellUrl ?? '',
    checkCommand:
      options.shellUrl !== undefined
        ? `gatehouse-contract-check --shell ${options.shellUrl}`
        : 'gatehouse-contract-check --shell "${GATEHOUSE_SHELL_URL:?set GATEHOUSE_SHELL_URL to the deployed shell, e.g. https://app.example.com}"',
    configSchema: configSchemaPath(false),
    apiUrl: api.url,
    apiAudience: api.audience,
    apiScope: api.scope,
  };
  for (const [pkg, spec] of Object.entries(gatehouse)) values[`gatehouse:${pkg}`] = spec;
  const versions = toolVersions(root, workspace.versions);
  const files = new Map([...renderTemplate(values, versions, TEMPLATE_DIR), ...renderTemplate(values, versions, OUTSIDE_TEMPLATE_DIR)]);
  files.set('package-lock.json', seedLockfile(root, JSON.parse(files.get('package.json') ?? '{}'), options.dir, pinned));
  if (options.registry !== undefined) files.set('.npmrc', `@gatehouse:registry=${options.registry}\n`);
  const created: string[] = [];
  for (const [relative, text] of files) {
    const target = path.join(options.dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text, { flag: 'wx' });
    created.push(relative);
  }
  const tarballs = Object.values(gatehouse).flatMap((spec) => (spec.startsWith('file:') ? [spec.slice('file:'.length)] : []));
  const changed = overlayText === null ? [] : [writeOverlay(root, overlayText)];
  const entry = { name: options.name, manifest: `http://localhost:${port.port}/mf-manifest.json`, route, title };
  return { ok: true, created, changed, port: port.port, entry, tarballs };
}

/** The version the published packages share (lerna.json, fixed mode): what a new remote depends on. */
export function platformVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'auth-lib', 'package.json'), 'utf8')) as { version: string }).version;
}

/** `file:` specs (relative to `dir`) of the packed tarballs in `packages`, or the exact version of each published package. */
function gatehouseVersions(root: string, packages: string | undefined, dir: string): Record<string, string> {
  const specs: Record<string, string> = {};
  for (const pkg of PUBLISHED_PACKAGES) {
    const folder = pkg === '@gatehouse/auth-lib' ? 'auth-lib' : path.join('tooling', pkg.slice('@gatehouse/'.length));
    const version = (JSON.parse(fs.readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as { version: string }).version;
    if (packages === undefined) {
      specs[pkg] = version;
      continue;
    }
    const tarball = path.resolve(packages, `${pkg.slice(1).replace('/', '-')}-${version}.tgz`);
    if (!fs.existsSync(tarball))
      throw new Error(
        `${tarball} does not exist: pack the packages first with \`npm run pack:packages -- ${packages}\` (in a Gatehouse checkout).`,
      );
    // relative, so the committed package.json and lockfile hold no path of this machine
    specs[pkg] = `file:${path.relative(dir, tarball).split(path.sep).join('/')}`;
  }
  return specs;
}

/** The versions of the tools the repository itself pins (TypeScript, jest, webpack…), so a remote starts on the same. */
function toolVersions(root: string, pinned: Readonly<Record<string, string>>): Record<string, string> {
  const read = (file: string) =>
    JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
  return { ...read('package.json').devDependencies, ...read('tooling/federation/package.json').dependencies, ...pinned };
}
