/**
 * The signature reports of the public API (API Extractor's `.api.md`): every entry point `exports` names in
 * package.json, and the shell's federated `./auth` module. Each report lists every exported type, function
 * signature, hook, class member and constant type, and the internal types they refer to; the reports are committed,
 * so a change to the API shows up as a diff to review.
 *
 *   apiReports()                                compares them (src/apiReport.test.ts, so in `npm test`); a
 *                                               changed report's diff is in the result's messages
 *   npm run api:update -w @gatehouse/auth-lib   writes them anew (this file, run by tsx): review and commit them
 *
 * How: tsc emits the declarations of the entry points (as the build's tsconfig.build.json does, with the
 * @gatehouse/source condition, so no dist/ is needed) into a temporary folder, and API Extractor reads them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..', '..');

export const UPDATE_COMMAND = 'npm run api:update -w @gatehouse/auth-lib';

export interface ApiEntry {
  /** What a consumer imports (the report's title). */
  name: string;
  /** The entry's source, from the repository's root. */
  source: string;
  /** The committed report, from the repository's root. */
  report: string;
}

/** Every entry `exports` names (`./package.json` and `./public/*` are files, not code), and the shell's `./auth`. */
export const API_ENTRIES: readonly ApiEntry[] = [
  { name: '@gatehouse/auth-lib', source: 'auth-lib/src/index.ts', report: 'auth-lib/api/auth-lib.api.md' },
  { name: '@gatehouse/auth-lib/testing', source: 'auth-lib/src/testing/index.ts', report: 'auth-lib/api/auth-lib-testing.api.md' },
  // what a remote imports as `gatehouse_shell/auth` (shell/webpack.config.ts exposes it; tooling/contract-check types it)
  { name: 'gatehouse_shell/auth', source: 'shell/src/auth/index.ts', report: 'shell/api/auth.api.md' },
];

/** The shell's module imports auth-lib by name: both programs resolve the name to auth-lib's files, not dist/. */
const AUTH_LIB_PATHS = { '@gatehouse/auth-lib': 'auth-lib/src/index', '@gatehouse/auth-lib/testing': 'auth-lib/src/testing/index' };

export interface ApiReportResult {
  entry: ApiEntry;
  /** Whether the committed report matches (check) or was written (update), with no error or warning. */
  ok: boolean;
  /** Whether the report of this run differs from the committed one (or there is none). */
  changed: boolean;
  /** API Extractor's errors and warnings: for a changed report, its diff. */
  messages: string[];
}

/** The declarations of the entry points, as the published build emits them, under `outDir` (mirroring ROOT). */
function emitDeclarations(outDir: string): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'auth-lib/tsconfig.build.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error('auth-lib/tsconfig.build.json could not be read');
  const options: ts.CompilerOptions = {
    ...parsed.options,
    customConditions: ['@gatehouse/source'],
    paths: Object.fromEntries(Object.entries(AUTH_LIB_PATHS).map(([name, path]) => [name, [join(ROOT, `${path}.ts`)]])),
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
    API_ENTRIES.map((entry) => join(ROOT, entry.source)),
    options,
  );
  const { diagnostics } = program.emit(undefined, undefined, undefined, true);
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
    throw new Error(`tsc could not emit the declarations of the public API:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}

const declarationOf = (dtsDir: string, source: string) => join(dtsDir, source.replace(/\.ts$/, '.d.ts'));

function runExtractor(entry: ApiEntry, dtsDir: string, tempDir: string, update: boolean): ApiReportResult {
  const report = join(ROOT, entry.report);
  if (update) mkdirSync(dirname(report), { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: dtsDir,
      mainEntryPointFilePath: declarationOf(dtsDir, entry.source),
      // the shell's module re-exports auth-lib: its report shows the signatures, not only the names
      bundledPackages: ['@gatehouse/auth-lib'],
      newlineKind: 'lf',
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            module: 'ESNext',
            moduleResolution: 'Bundler',
            jsx: 'react-jsx',
            strict: true,
            skipLibCheck: true,
            types: [],
            paths: Object.fromEntries(Object.entries(AUTH_LIB_PATHS).map(([name, path]) => [name, [declarationOf(dtsDir, `${path}.ts`)]])),
          },
          files: [declarationOf(dtsDir, entry.source)],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report.split('/').pop()!,
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
    // the report's title names the package (the file's name tells the entry); the package's folder is the
    // declarations' root, so messages give paths from the repository's root, not the temporary folder's
    packageJson: JSON.parse(readFileSync(join(ROOT, entry.source.split('/')[0]!, 'package.json'), 'utf8')),
    packageJsonFullPath: join(dtsDir, 'package.json'),
  });
  const messages: string[] = [];
  if (!update && !existsSync(report)) messages.push(`There is no ${entry.report} yet.`);
  const result = Extractor.invoke(config, {
    localBuild: update,
    printApiReportDiff: true,
    messageCallback: (message: ExtractorMessage) => {
      message.handled = true;
      // what to do about a changed report is for the caller to say (API Extractor's advice names a temporary file)
      if (SAID_BY_THE_CALLER.has(message.messageId)) return;
      if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
        // a location is in the declarations: given from their root, as from the repository's; a diff's file names
        // are the committed report's, from the root, and the report of this run's
        messages.push(message.formatMessageWithLocation(dtsDir).split(tempDir).join('(this run)').split(`${ROOT}/`).join(''));
      }
    },
  });
  return { entry, ok: result.succeeded && (update || !result.apiReportChanged), changed: result.apiReportChanged, messages };
}

const SAID_BY_THE_CALLER = new Set<string>(['console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created']);

/** Makes each entry's report and compares it with the committed one (`update`: writes it there instead). */
export function apiReports({ update = false }: { update?: boolean } = {}): ApiReportResult[] {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-api-'));
  try {
    const dtsDir = join(work, 'dts');
    emitDeclarations(dtsDir);
    return API_ENTRIES.map((entry) => runExtractor(entry, dtsDir, join(work, 'reports'), update));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// `npm run api:update -w @gatehouse/auth-lib`
if (require.main === module) {
  const results = apiReports({ update: true });
  for (const { entry, ok, changed, messages } of results) {
    const state = !ok ? 'FAILED   ' : changed ? 'updated  ' : 'unchanged';
    process.stdout.write(`${state}  ${relative(process.cwd(), join(ROOT, entry.report))}  (${entry.name})\n`);
    for (const message of messages) process.stdout.write(`  ${message.replace(/\n/g, '\n  ')}\n`);
  }
  if (results.some((result) => !result.ok)) process.exitCode = 1;
  else if (results.some((result) => result.changed))
    process.stdout.write('Review the changes (git diff) and commit them with the change to the API.\n');
}
