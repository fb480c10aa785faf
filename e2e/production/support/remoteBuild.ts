import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './previewProcess';

/** How a rebuilt copy of a remote differs from its real build; the source in the repo is never touched. */
export interface RemoteVariant {
  /** shared packages this copy declares another version of (its requiredVersion follows: `^version`) */
  sharedVersions?: Record<string, string>;
  /** text replacements in the remote's source files (paths relative to the remote's folder), applied while bundling */
  edits?: Record<string, Array<[from: string, to: string]>>;
}

/**
 * Builds remote `name` with its own webpack config (the shared federation settings, production mode)
 * into `outDir`, changed only as `variant` says. A small wrapper config in `workDir` overrides the
 * output folder, the shared map and, through a pre-loader, the source text; nothing is written to the repo.
 */
export async function buildRemote(name: string, workDir: string, outDir: string, variant: RemoteVariant = {}): Promise<void> {
  const remoteDir = join(REPO_ROOT, 'remotes', name);
  mkdirSync(workDir, { recursive: true });
  const edits = Object.entries(variant.edits ?? {}).map(([file, replacements]) => ({ file: join(remoteDir, file), replacements }));
  writeFileSync(
    join(workDir, 'edit-loader.cjs'),
    `module.exports = function editLoader(source) {
  const { replacements } = this.getOptions();
  for (const [from, to] of replacements) {
    if (!source.includes(from)) throw new Error(this.resourcePath + ' no longer contains ' + JSON.stringify(from) + ': update the test that edits it');
    source = source.split(from).join(to);
  }
  return source;
};
`,
  );
  const configFile = join(workDir, 'webpack.config.cjs');
  writeFileSync(
    configFile,
    `const app = require(${JSON.stringify(join(remoteDir, 'webpack.config.ts'))}).default;
const variant = ${JSON.stringify({ outDir, sharedVersions: variant.sharedVersions ?? {}, edits })};
module.exports = (env, argv) => {
  const config = app(env, argv);
  config.output.path = variant.outDir;
  const federation = config.plugins.find((p) => p && p.constructor && p.constructor.name === 'ModuleFederationPlugin');
  for (const [pkg, version] of Object.entries(variant.sharedVersions)) {
    const entry = federation._options.shared[pkg];
    if (!entry) throw new Error('the shared map has no ' + pkg);
    federation._options.shared[pkg] = { ...entry, version, requiredVersion: '^' + version };
  }
  for (const { file, replacements } of variant.edits) {
    config.module.rules.push({ test: file, enforce: 'pre', loader: ${JSON.stringify(join(workDir, 'edit-loader.cjs'))}, options: { replacements } });
  }
  return config;
};
`,
  );
  const cli = require.resolve('webpack-cli/bin/cli.js', { paths: [remoteDir] });
  const child = spawn(process.execPath, [cli, '--config', configFile, '--mode', 'production', '--disable-interpret'], {
    cwd: remoteDir,
    env: { ...process.env, NODE_OPTIONS: '--import=tsx --conditions=@gatehouse/source' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building a copy of remote "${name}" failed (exit ${code}):\n${output}`);
}

/**
 * Deploys `release` by pointing the folder nginx serves (`live`, a symlink) at it in one step, as release
 * directories on a server do: the rename is atomic, nginx keeps running.
 */
export function deployRelease(live: string, release: string): void {
  symlinkSync(release, `${live}.next`);
  renameSync(`${live}.next`, live);
}

/**
 * A remote of this repository served from release folders, as on a server: `releases/<name>` in a temporary folder
 * of the test's own (`work`), and `live`, the symlink nginx is given, pointed at one of them by `deploy`. Release `1`
 * is a copy of the repository's build of the remote; `empty`, an empty folder (nginx answers 404 for everything).
 * Nothing is deployed until `deploy` is called.
 */
export class ReleaseFolders {
  /** the temporary folder: the releases, and room for the test's own files (a build's work folder) */
  readonly work: string;
  /** what nginx serves: a symlink to the deployed release */
  readonly live: string;

  constructor(remote: string, prefix: string) {
    this.work = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(this.dir('empty'), { recursive: true });
    cpSync(join(REPO_ROOT, 'remotes', remote, 'dist'), this.dir('1'), { recursive: true });
    this.live = join(this.work, `${remote}-live`);
  }

  /** the folder of `release` */
  dir(release: string): string {
    return join(this.work, 'releases', release);
  }

  /** Deploys `release` (deployRelease: one atomic step, nginx keeps running). */
  deploy(release: string): void {
    deployRelease(this.live, this.dir(release));
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}

/** sha256 of every file below `dir`, by path relative to it. */
export function hashTree(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else hashes[relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return hashes;
}
