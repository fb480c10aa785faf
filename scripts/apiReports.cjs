// The public API of the published packages pinned by signature: API Extractor's report (`.api.md`) of every code
// entry point that a package's `exports` names, committed beside the package, so a change to the API shows up as a
// diff to review. Each report lists every exported type, function signature, hook, class member and constant type,
// and the internal types they refer to.
//
//   npm run api:update                     writes every package's reports anew: review and commit them
//   npm run api:update -w <package>        one package's (e.g. -w @gatehouse/federation)
//   apiReportTests(package, jest)          each package's apiReport test (so `npm test`): fails on a changed report,
//                                          with its diff, and on an entry point without a report
//
// How: tsc emits the declarations of the TypeScript entry points (with the @gatehouse/source condition, as the
// package's own build tsconfig would with the source, so no dist/ is needed) into a temporary folder, and API
// Extractor reads them; @gatehouse/config's hand-written declarations (.d.cts) are read where they are.
'use strict';

const { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, relative, resolve } = require('node:path');
const { Extractor, ExtractorConfig, ExtractorLogLevel } = require('@microsoft/api-extractor');
const ts = require('typescript');

const ROOT = resolve(__dirname, '..');

/**
 * @typedef {object} ApiEntry
 * @property {string} name what a consumer imports (the report's title)
 * @property {string} source the entry's source or hand-written declarations, from the repository's root
 * @property {string} report the committed report, from the repository's root
 * @property {string} [tsconfig] the build tsconfig whose options emit its declarations (none: `source` is declarations)
 *
 * @typedef {object} ApiPackage
 * @property {string} name the package's name (`npm run api:update -w <name>`)
 * @property {string} folder its folder, from the repository's root
 * @property {ApiEntry[]} entries every code entry point of its `exports` (and, for auth-lib, the shell's `./auth`)
 * @property {string[]} [bundledPackages] packages whose signatures the report shows in full instead of importing them
 *
 * @typedef {object} ApiReportResult
 * @property {ApiEntry} entry
 * @property {boolean} ok whether the committed report matches (check) or was written (update), with no error or warning
 * @property {boolean} changed whether the report of this run differs from the committed one (or there is none)
 * @property {string[]} messages API Extractor's errors and warnings: for a changed report, its diff
 */

const AUTH_LIB_BUILD = 'auth-lib/tsconfig.build.json';
const FEDERATION_NODE_BUILD = 'tooling/federation/tsconfig.build.json';
const FEDERATION_BROWSER_BUILD = 'tooling/federation/tsconfig.build.browser.json';

/** The published packages whose API is pinned, by workspace folder name. @type {Record<string, ApiPackage>} */
const API_PACKAGES = {
  'auth-lib': {
    name: '@gatehouse/auth-lib',
    folder: 'auth-lib',
    entries: [
      { name: '@gatehouse/auth-lib', source: 'auth-lib/src/index.ts', report: 'auth-lib/api/auth-lib.api.md', tsconfig: AUTH_LIB_BUILD },
      {
        name: '@gatehouse/auth-lib/testing',
        source: 'auth-lib/src/testing/index.ts',
        report: 'auth-lib/api/auth-lib-testing.api.md',
        tsconfig: AUTH_LIB_BUILD,
      },
      // what a remote imports as `gatehouse_shell/auth` (shell/webpack.config.ts exposes it; tooling/contract-check types it)
      { name: 'gatehouse_shell/auth', source: 'shell/src/auth/index.ts', report: 'shell/api/auth.api.md', tsconfig: AUTH_LIB_BUILD },
    ],
    // the shell's module re-exports auth-lib: its report shows the signatures, not only the names
    bundledPackages: ['@gatehouse/auth-lib'],
  },
  federation: {
    name: '@gatehouse/federation',
    folder: 'tooling/federation',
    entries: [
      {
        name: '@gatehouse/federation',
        source: 'tooling/federation/src/index.ts',
        report: 'tooling/federation/api/federation.api.md',
        tsconfig: FEDERATION_NODE_BUILD,
      },
      {
        name: '@gatehouse/federation/vite',
        source: 'tooling/federation/src/vite.ts',
        report: 'tooling/federation/api/federation-vite.api.md',
        tsconfig: FEDERATION_NODE_BUILD,
      },
      {
        name: '@gatehouse/federation/rsbuild',
        source: 'tooling/federation/src/rsbuild.ts',
        report: 'tooling/federation/api/federation-rsbuild.api.md',
        tsconfig: FEDERATION_NODE_BUILD,
      },
      {
        name: '@gatehouse/federation/release',
        source: 'tooling/federation/src/release/index.ts',
        report: 'tooling/federation/api/federation-release.api.md',
        tsconfig: FEDERATION_NODE_BUILD,
      },
      {
        name: '@gatehouse/federation/standalone',
        source: 'tooling/federation/src/standalone/index.tsx',
        report: 'tooling/federation/api/federation-standalone.api.md',
        tsconfig: FEDERATION_BROWSER_BUILD,
      },
    ],
  },
  config: {
    name: '@gatehouse/config',
    folder: 'tooling/config',
    entries: [
      { name: '@gatehouse/config', source: 'tooling/config/src/index.d.cts', report: 'tooling/config/api/config.api.md' },
      {
        name: '@gatehouse/config/validate',
        source: 'tooling/config/src/validate.d.cts',
        report: 'tooling/config/api/config-validate.api.md',
      },
      { name: '@gatehouse/config/accepts', source: 'tooling/config/src/accepts.d.cts', report: 'tooling/config/api/config-accepts.api.md' },
    ],
  },
};

/** The Gatehouse packages a program resolves to their source (the @gatehouse/source condition), by file. */
const SOURCE_PATHS = { '@gatehouse/auth-lib': 'auth-lib/src/index', '@gatehouse/auth-lib/testing': 'auth-lib/src/testing/index' };

/** @param {string} key */
const updateCommand = (key) => `npm run api:update -w ${API_PACKAGES[key]?.name}`;

/** @param {string} key a key of API_PACKAGES @returns {ApiPackage} */
function apiPackage(key) {
  const pkg = API_PACKAGES[key];
  if (!pkg) throw new Error(`No API report is kept for "${key}": one of ${Object.keys(API_PACKAGES).join(', ')}`);
  return pkg;
}

/**
 * The code entry points of a package's `exports`, from the repository's root: each target's source (the
 * @gatehouse/source condition) or else its declarations (`types`); plain files (`./package.json`, a schema, a
 * stylesheet) are not code.
 * @param {string} key
 */
function exportedEntryPoints(key) {
  const { folder } = apiPackage(key);
  /** @type {{ exports: Record<string, string | Record<string, string>> }} */
  const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
  return Object.values(manifest.exports)
    .flatMap((target) => (typeof target === 'string' ? [] : [target['@gatehouse/source'] ?? target.types]))
    .filter((/** @type {string | undefined} */ file) => file !== undefined)
    .map((file) => join(folder, file))
    .sort();
}

/**
 * The declarations of the TypeScript entry points, as the published build emits them, under `outDir` (mirroring ROOT).
 * @param {ApiEntry[]} entries
 * @param {string} outDir
 */
function emitDeclarations(entries, outDir) {
  /** @type {Map<string, string[]>} */
  const byConfig = new Map();
  for (const entry of entries) if (entry.tsconfig) byConfig.set(entry.tsconfig, [...(byConfig.get(entry.tsconfig) ?? []), entry.source]);
  for (const [tsconfig, sources] of byConfig) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, tsconfig),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!parsed) throw new Error(`${tsconfig} could not be read`);
    /** @type {import('typescript').CompilerOptions} */
    const options = {
      ...parsed.options,
      customConditions: ['@gatehouse/source'],
      paths: Object.fromEntries(Object.entries(SOURCE_PATHS).map(([name, path]) => [name, [join(ROOT, `${path}.ts`)]])),
      rootDir: ROOT,
      outDir,
      declaration: true,
      emitDeclarationOnly: true,
      declarationMap: false,
      noEmit: false,
      composite: false,
      incremental: false,
      skipLibCheck: true,
    };
    const program = ts.createProgram(
      sources.map((source) => join(ROOT, source)),
      options,
    );
    const { diagnostics } = program.emit(undefined, undefined, undefined, true);
    if (diagnostics.length > 0) {
      const host = { getCanonicalFileName: (/** @type {string} */ name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
      throw new Error(`tsc could not emit the declarations of the public API (${tsconfig}):\n${ts.formatDiagnostics(diagnostics, host)}`);
    }
  }
}

/** @param {string} dtsDir @param {string} source */
const declarationOf = (dtsDir, source) => join(dtsDir, source.replace(/\.tsx?$/, '.d.ts'));

/** The package.json of the package a source is in (the shell's, for its `./auth`). @param {string} source */
function packageJsonOf(source) {
  for (let dir = dirname(join(ROOT, source)); dir !== ROOT; dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'package.json');
  throw new Error(`${source} is in no package`);
}

/** What to do about a changed report is for the caller to say (API Extractor's advice names a temporary file). */
const SAID_BY_THE_CALLER = new Set(['console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created']);

/**
 * @param {ApiPackage} pkg
 * @param {ApiEntry} entry
 * @param {string} dtsDir
 * @param {string} tempDir
 * @param {boolean} update
 * @returns {ApiReportResult}
 */
function runExtractor(pkg, entry, dtsDir, tempDir, update) {
  const report = join(ROOT, entry.report);
  if (update) mkdirSync(dirname(report), { recursive: true });
  // emitted declarations are read from the temporary folder; hand-written ones where they are
  const base = entry.tsconfig ? dtsDir : ROOT;
  const main = entry.tsconfig ? declarationOf(dtsDir, entry.source) : join(ROOT, entry.source);
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: base,
      mainEntryPointFilePath: main,
      bundledPackages: pkg.bundledPackages ?? [],
      newlineKind: 'lf',
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            module: entry.tsconfig ? 'ESNext' : 'NodeNext',
            moduleResolution: entry.tsconfig ? 'Bundler' : 'NodeNext',
            jsx: 'react-jsx',
            strict: true,
            skipLibCheck: true,
            types: [],
            paths: Object.fromEntries(Object.entries(SOURCE_PATHS).map(([name, path]) => [name, [declarationOf(dtsDir, `${path}.ts`)]])),
          },
          files: [main],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: /** @type {string} */ (entry.report.split('/').pop()),
        reportFolder: dirname(report),
        reportTempFolder: tempDir,
        // an internal type that an exported signature uses is part of the API too
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning },
          'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          // the packages use no release tags (@public, @beta): everything exported is public
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
          // an internal type that an exported signature uses is in the report all the same (as a declaration
          // without `export`: includeForgottenExports); the note with its line number would change with every comment
          'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        },
        // the doc comments are prose, not TSDoc
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    // the report's title names the package (the file's name tells the entry); no package.json is looked for
    // beside the declarations, so messages give paths from the repository's root, not the temporary folder's
    packageJson: JSON.parse(readFileSync(packageJsonOf(entry.source), 'utf8')),
    packageJsonFullPath: join(dtsDir, 'package.json'),
  });
  /** @type {string[]} */
  const messages = [];
  if (!update && !existsSync(report)) messages.push(`There is no ${entry.report} yet.`);
  const result = Extractor.invoke(config, {
    localBuild: update,
    printApiReportDiff: true,
    messageCallback: (message) => {
      message.handled = true;
      if (SAID_BY_THE_CALLER.has(message.messageId)) return;
      if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
        // a location is given from the declarations' root, as from the repository's; a diff's file names are the
        // committed report's, from the root, and the report of this run's
        messages.push(message.formatMessageWithLocation(base).split(tempDir).join('(this run)').split(`${ROOT}/`).join(''));
      }
    },
  });
  return { entry, ok: result.succeeded && (update || !result.apiReportChanged), changed: result.apiReportChanged, messages };
}

/**
 * Makes each entry's report of a package and compares it with the committed one (`update`: writes it there instead).
 * @param {string} key a key of API_PACKAGES
 * @param {{ update?: boolean }} [options]
 * @returns {ApiReportResult[]}
 */
function apiReports(key, { update = false } = {}) {
  const pkg = apiPackage(key);
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-api-'));
  try {
    const dtsDir = join(work, 'dts');
    emitDeclarations(pkg.entries, dtsDir);
    return pkg.entries.map((entry) => runExtractor(pkg, entry, dtsDir, join(work, 'reports'), update));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A package's API tests, given jest's `beforeAll` and `test`: every code entry point of its `exports` has a report,
 * and each report matches the API as the source has it now (a change fails with the diff and what to do).
 * @param {string} key a key of API_PACKAGES
 * @param {{ beforeAll: (fn: () => void, timeout?: number) => void, test: (name: string, fn: () => void) => void }} jest
 */
function apiReportTests(key, { beforeAll, test }) {
  const pkg = apiPackage(key);
  /** @type {ApiReportResult[]} */
  let results = [];
  beforeAll(() => {
    results = apiReports(key);
  }, 120_000);

  test(`every code entry point of ${pkg.name}'s package.json exports has a report`, () => {
    const reported = pkg.entries.map((entry) => entry.source).filter((source) => source.startsWith(`${pkg.folder}/`));
    const missing = exportedEntryPoints(key).filter((source) => !reported.includes(source));
    const gone = reported.filter((source) => !exportedEntryPoints(key).includes(source));
    if (missing.length > 0 || gone.length > 0)
      throw new Error(
        `scripts/apiReports.cjs's entries for ${pkg.name} do not match its package.json exports: ` +
          `${missing.length > 0 ? `not reported: ${missing.join(', ')}` : ''}${gone.length > 0 ? ` no longer exported: ${gone.join(', ')}` : ''}`,
      );
  });

  for (const entry of pkg.entries) {
    test(`the API of ${entry.name} matches its committed report`, () => {
      const result = results.find((candidate) => candidate.entry === entry);
      if (result?.ok) return;
      throw new Error(
        `The public API of ${entry.name} (${entry.source}) no longer matches ${entry.report}.\n` +
          `If the change is on purpose, run \`${updateCommand(key)}\` and commit the report with it, for review; ` +
          `if not, undo it. API Extractor:\n\n${result ? result.messages.join('\n\n') : '(no result: the reports could not be made)'}`,
      );
    });
  }
}

module.exports = { API_PACKAGES, apiReports, apiReportTests, exportedEntryPoints, updateCommand };

// `npm run api:update [-w <package>]`: node scripts/apiReports.cjs [<key>…]
if (require.main === module) {
  const keys = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(API_PACKAGES);
  let failed = false;
  let changed = false;
  for (const key of keys) {
    for (const result of apiReports(key, { update: true })) {
      const state = !result.ok ? 'FAILED   ' : result.changed ? 'updated  ' : 'unchanged';
      process.stdout.write(`${state}  ${relative(process.cwd(), join(ROOT, result.entry.report))}  (${result.entry.name})\n`);
      for (const message of result.messages) process.stdout.write(`  ${message.replace(/\n/g, '\n  ')}\n`);
      failed ||= !result.ok;
      changed ||= result.changed;
    }
  }
  if (failed) process.exitCode = 1;
  else if (changed) process.stdout.write('Review the changes (git diff) and commit them with the change to the API.\n');
}
