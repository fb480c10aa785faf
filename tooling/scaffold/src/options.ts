/** What `npm run new-remote -- <name> [options]` was asked for, before any validation against the repository. */
export interface NewRemoteOptions {
  readonly name: string | null;
  readonly route: string | null;
  readonly title: string | null;
  readonly port: string | null;
  readonly realmRoles: readonly string[];
  /** `client:role` as typed */
  readonly clientRoles: readonly string[];
  /** `webpack` (the default), `vite` or `rsbuild`, as typed */
  readonly bundler: string | null;
  /** run `npm install` at the end (off with --skip-install) */
  readonly install: boolean;
  /** the repository root (default: the checkout this tool is in) */
  readonly root: string | null;
  readonly help: boolean;
  /** write a standalone repository in this folder instead of remotes/<name> (nothing in this repository changes) */
  readonly outside: string | null;
  /** with --outside: a folder of `npm pack` tarballs to depend on instead of the published packages */
  readonly packages: string | null;
  /** with --outside: the deployed shell its CI checks the contract against */
  readonly shellUrl: string | null;
  /** with --outside: the npm registry that has the @gatehouse packages (written to the new repository's .npmrc) */
  readonly registry: string | null;
}

export const USAGE = `Usage: npm run new-remote -- <name> [options]

  <name>                     the remote's name: lower-case letters, digits and _ (it becomes the federation
                             container's JavaScript name), e.g. billing or order_history
  --route /path              the shell route it owns (default /<name>)
  --title "Title"            the navigation title (default from the name)
  --realm-role <role>        a realm role the visitor needs (repeatable)
  --client-role <client:role> a client role the visitor needs (repeatable), e.g. reports:viewer
  --port <port>              the dev server's port (default: the first free one from 3004)
  --bundler <name>           webpack (the default), vite (@module-federation/vite) or rsbuild
                             (@module-federation/rsbuild-plugin): see docs/remote-teams.md, "Vite or Rsbuild"
  --skip-install             do not run npm install at the end
  --root <dir>               the Gatehouse checkout to change (default: this one)
  --outside <dir>            write the remote as its own repository in <dir> (e.g. ../billing), depending on
                             the published @gatehouse packages; nothing in this checkout changes. Needs --registry
                             or --packages: the @gatehouse scope on the public npm registry is not this project's
  --registry <url>           with --outside: the npm registry that has the @gatehouse packages (your organisation's,
                             where \`npm run publish:packages -- --registry <url>\` published them); written to the
                             new repository's .npmrc as @gatehouse:registry; its lockfile pins each package's integrity
  --packages <dir>           with --outside: depend on the tarballs \`npm run pack:packages -- <dir>\` wrote to <dir>
                             instead, by a path relative to the new repository (commit them, or put them there in CI)
  --shell-url <url>          with --outside: the deployed shell its CI checks the contract against`;

const VALUE_FLAGS = new Set([
  '--route',
  '--title',
  '--realm-role',
  '--client-role',
  '--port',
  '--root',
  '--outside',
  '--packages',
  '--shell-url',
  '--registry',
  '--bundler',
]);

/** Parses the command line; returns the options and the problems with the command line itself. */
export function parseOptions(argv: readonly string[]): { options: NewRemoteOptions; problems: string[] } {
  const problems: string[] = [];
  const positional: string[] = [];
  const single: Record<string, string> = {};
  const realmRoles: string[] = [];
  const clientRoles: string[] = [];
  let install = true;
  let help = false;
  for (let i = 0; i < argv.length; i += 1) {
    const raw = argv[i] ?? '';
    const [flag, inlineValue] =
      raw.startsWith('--') && raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--skip-install') install = false;
    else if (VALUE_FLAGS.has(flag)) {
      const value = inlineValue ?? argv[i + 1];
      if (inlineValue === undefined) i += 1;
      if (value === undefined || value === '' || (inlineValue === undefined && value.startsWith('--'))) {
        problems.push(`${flag} needs a value.`);
        if (value?.startsWith('--')) i -= 1;
        continue;
      }
      if (flag === '--realm-role') realmRoles.push(value);
      else if (flag === '--client-role') clientRoles.push(value);
      else if (single[flag] !== undefined) problems.push(`${flag} is given twice.`);
      else single[flag] = value;
    } else if (flag.startsWith('-')) problems.push(`Unknown option "${flag}".`);
    else positional.push(raw);
  }
  if (positional.length > 1) problems.push(`One remote at a time: got ${positional.map((p) => `"${p}"`).join(', ')}.`);
  return {
    options: {
      name: positional[0] ?? null,
      route: single['--route'] ?? null,
      title: single['--title'] ?? null,
      port: single['--port'] ?? null,
      realmRoles,
      clientRoles,
      install,
      root: single['--root'] ?? null,
      help,
      outside: single['--outside'] ?? null,
      packages: single['--packages'] ?? null,
      shellUrl: single['--shell-url'] ?? null,
      registry: single['--registry'] ?? null,
      bundler: single['--bundler'] ?? null,
    },
    problems,
  };
}
