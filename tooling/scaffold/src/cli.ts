import { spawn } from 'node:child_process';
import path from 'node:path';
import { newRemote } from './newRemote';
import { newOutsideRemote, platformVersion, PUBLISHED_PACKAGES, type FirstCheck } from './outside';
import { parseOptions, USAGE, type NewRemoteOptions } from './options';
import type { PortProbe } from './plan';
import { portIsFree as probePort } from './portProbe';
import { askRegistry, registryProblem, type PinnedEntry, type RegistryAnswer } from './registryCheck';

/** The repository this tool is part of (tooling/scaffold/src → root). */
export const DEFAULT_ROOT = path.join(__dirname, '..', '..', '..');

/** `npm install` in a folder (the root, or a remote's own repository); resolves to its exit code. */
export type Installer = (dir: string) => Promise<number>;

export const npmInstall: Installer = (root) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });

/**
 * How a remote's own repository is installed: `npm install` twice. From the seeded lockfile, npm 11's first install
 * leaves out of package-lock.json what it places as a peer's dependencies (@rspack/core under
 * @module-federation/rspack, @rspack/binding and its per-platform packages), which `npm ci` on another machine then
 * refuses ("Missing: … from lock file"); the second install, over the installed tree, records them (seconds; nothing
 * is downloaded again). The scaffold runs this very command (npmInstallRepository), and prints it for a team that
 * installs itself (--skip-install): e2e/registry/remote-installs-from-a-registry.spec.ts runs `npm ci` in a fresh
 * clone of a repository it installed.
 */
export const REPOSITORY_INSTALL = 'npm install && npm install';

/**
 * REPOSITORY_INSTALL in a remote's own repository, through the shell as a team would type it; npm's audit and funding
 * notes are off and its cache is preferred (npm reads `npm_config_*` from the environment), which changes no lockfile.
 */
export const npmInstallRepository: Installer = (dir) =>
  new Promise((resolve) => {
    const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' };
    const child = spawn(REPOSITORY_INSTALL, { cwd: dir, stdio: 'inherit', shell: true, env });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });

export interface CliIo {
  readonly cwd: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly portIsFree?: PortProbe;
  readonly install?: Installer;
  readonly defaultRoot?: string;
  /** asks a registry for a package version (default: a bounded HTTP request, registryCheck.ts) */
  readonly askRegistry?: (registry: string, pkg: string, version: string) => Promise<RegistryAnswer>;
}

/** `npm run new-remote -- <name> …`; resolves to the exit code (0 created, 1 refused, 2 usage). */
export async function runNewRemote(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, problems } = parseOptions(argv);
  if (options.help) {
    io.out(USAGE);
    return 0;
  }
  if (problems.length > 0) {
    io.err(`${problems.map((p) => `✗ ${p}`).join('\n')}\n\n${USAGE}`);
    return 2;
  }
  const root = options.root !== null ? path.resolve(io.cwd, options.root) : (io.defaultRoot ?? DEFAULT_ROOT);
  if (options.outside !== null) {
    if (options.bundler !== null && options.bundler !== 'webpack') {
      io.err(
        `Nothing was created:\n  ✗ --bundler ${options.bundler} with --outside: a remote in its own repository is written for webpack only so far; ` +
          'create it with webpack, or create a Vite or Rsbuild remote inside this checkout (docs/remote-teams.md, "A remote built with Vite or Rsbuild").',
      );
      return 1;
    }
    return writeOutside(options, root, io);
  }
  const result = await newRemote(options, root, io.portIsFree ?? probePort);
  if (!result.ok) {
    io.err(`Nothing was created or changed:\n${result.problems.map((p) => `  ✗ ${p}`).join('\n')}`);
    return 1;
  }
  const { plan } = result;
  io.out(
    [
      `Created the remote "${plan.name}" (${plan.packageName}): route ${plan.route}, dev port ${plan.port}.`,
      ...result.created.map((file) => `  + ${file}`),
      ...result.changed.map((file) => `  ~ ${file}`),
    ].join('\n'),
  );
  if (options.install) {
    io.out('\nRegistering the package in the workspace: npm install --no-audit --no-fund --prefer-offline');
    const code = await (io.install ?? npmInstall)(root);
    if (code !== 0) io.err(`npm install failed (exit code ${code}); run it yourself before \`npm start\`.`);
  }
  io.out(nextSteps(plan.name, plan.packageName, plan.route, plan.port, plan.title));
  return 0;
}

function nextSteps(name: string, packageName: string, route: string, port: number, title: string): string {
  return `
Next:
  npm start                               the whole system; the shell at http://localhost:3000 shows "${title}"
                                          (at ${route}) in its navigation. Restart it if it was running: it starts
                                          the remotes it finds, and its identity provider reads the realm, which now
                                          has the scope ${name}-api that the shell asks for at sign-in (your API's).
  npm start -w ${packageName.padEnd(26)} only your remote, standalone at http://localhost:${port}
  npm test -w ${packageName.padEnd(27)} its unit tests (auth-lib's fake session)
  npm run check -w remotes/${name.padEnd(14)} does it fit the versions the shell provides?
  Guide: docs/remote-teams.md   Commit remotes/${name}, shell/public/config.json, the realm and package-lock.json.`;
}

/**
 * `--outside <dir>`: a remote in its own repository; nothing in this checkout changes. It needs `--registry` or
 * `--packages` (never the registry npm happens to be configured with). With `--registry` that registry is asked first
 * for each package (so an E404 is said up front, naming the command that publishes or packs them) and its answers
 * pin each one's tarball and integrity in the generated lockfile; then the repository is written and installed.
 */
async function writeOutside(options: NewRemoteOptions, root: string, io: CliIo): Promise<number> {
  const dir = path.resolve(io.cwd, options.outside ?? '.');
  const registryCheck = async (): Promise<FirstCheck> => {
    const registry = options.registry;
    if (registry === null) return { pinned: {} };
    const version = platformVersion(root);
    const pinned: Record<string, PinnedEntry> = {};
    for (const pkg of PUBLISHED_PACKAGES) {
      const answer = await (io.askRegistry ?? askRegistry)(registry, pkg, version);
      const problem = registryProblem(answer, registry, version, pkg);
      if (problem !== null || answer.kind !== 'has' || answer.pinned === undefined) return { problem: problem ?? `${registry}: ${pkg}` };
      pinned[pkg] = answer.pinned;
    }
    return { pinned };
  };
  const result = await newOutsideRemote(
    {
      name: options.name ?? '',
      dir,
      title: options.title ?? undefined,
      route: options.route ?? undefined,
      port: options.port ?? undefined,
      packages: options.packages !== null ? path.resolve(io.cwd, options.packages) : undefined,
      registry: options.registry ?? undefined,
      shellUrl: options.shellUrl ?? undefined,
    },
    root,
    registryCheck,
  );
  if (!result.ok) {
    io.err(`Nothing was created:\n${result.problems.map((p) => `  ✗ ${p}`).join('\n')}`);
    return 1;
  }
  io.out(
    [
      `Created the remote "${options.name}" as its own repository in ${dir}:`,
      ...result.created.map((file) => `  + ${file}`),
      ...result.changed.map((file) => `  ~ ${file} (in this checkout: its dev identity provider accepts the new remote's dev address)`),
    ].join('\n'),
  );
  let installed = false;
  if (options.install) {
    io.out(`\nInstalling its dependencies: npm install --no-audit --no-fund --prefer-offline (in ${dir})`);
    const code = await (io.install ?? npmInstallRepository)(dir);
    installed = code === 0;
    if (!installed) io.err(`npm install failed (exit code ${code}); its output is above. Run it again in ${dir} once that is fixed.`);
  }
  io.out(outsideNextSteps(dir, options.shellUrl, result.port, result.tarballs, installed, result.entry));
  return 0;
}

/** What to do next in the new repository; the contract check runs against --shell-url when one was given. */
export function outsideNextSteps(
  dir: string,
  shellUrl: string | null,
  port: number,
  tarballs: readonly string[],
  installed: boolean,
  entry?: { readonly name: string; readonly manifest: string; readonly route: string; readonly title: string },
): string {
  const check =
    shellUrl === null
      ? '  npx --package=@gatehouse/contract-check gatehouse-contract-check --shell <the deployed shell>   does the build fit what the shell shares?'
      : `  npm run check                     does the build fit what the shell at ${shellUrl} shares?`;
  return [
    '',
    `Next, in ${dir}:`,
    ...(installed
      ? []
      : [
          `  ${REPOSITORY_INSTALL.padEnd(35)}twice, the first time only: the second records in package-lock.json what the`,
          "                                    first placed under a peer (@rspack/binding's platform packages); without it",
          '                                    `npm ci` in CI stops with "Missing: … from lock file" (decisions/0049)',
        ]),
    '  npm test && npm run build',
    check,
    `  npm start                         the remote alone at http://localhost:${port}, signing in by itself`,
    '  git init && git add -A && git commit -m "A new remote"   CI (.github/workflows/ci.yml) runs npm ci from the lockfile',
    ...(tarballs.length > 0
      ? [
          `The Gatehouse packages are tarballs at ${tarballs.join(', ')} (relative to the repository): commit them there, or put them there before \`npm ci\`.`,
        ]
      : []),
    "Then add the remote to the shell's config.json (its README says how).",
    ...(entry
      ? [
          "To see it in the dev shell of a Gatehouse checkout (`npm start` there, restarted), put this in that checkout's",
          `git-ignored shell/config.local.json (docs/remote-teams.md#attach-it-to-a-dev-shell):`,
          `  { "remotes": [${JSON.stringify(entry)}] }`,
        ]
      : []),
  ].join('\n');
}
