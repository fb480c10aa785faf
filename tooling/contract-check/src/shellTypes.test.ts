import path from 'node:path';
import fs from 'node:fs';
import ts from 'typescript';

// The remote side of the boundary: a remote's tsconfig includes types/gatehouse-shell.d.ts, and tsc
// then checks every use of `gatehouse_shell/auth` against what the shell really exposes.
const ROOT = path.join(__dirname, '..', '..', '..');
const DECLARATION = path.join(__dirname, '..', 'types', 'gatehouse-shell.d.ts');
const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures', 'types');

function typeErrors(file: string): { line: number; code: string }[] {
  const base = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(base.config, ts.sys, ROOT);
  const program = ts.createProgram([file, DECLARATION], { ...options, types: [], noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ({ line: d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1, code: `TS${d.code}` }));
}

/** The `// ✗ TS<code>` marks of a fixture: the errors it must cause, by line. */
function expectedErrors(file: string): { line: number; code: string }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, index) => [...text.matchAll(/\/\/ ✗ (TS\d+)/g)].map((m) => ({ line: index + 1, code: m[1] ?? '' })));
}

const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;

describe('types of gatehouse_shell/auth for remotes', () => {
  it('accept a remote that uses the contract as the shell exposes it', () => {
    expect(typeErrors(path.join(FIXTURES, 'uses-the-contract.ts'))).toEqual([]);
  }, 60_000);

  it('fail a remote that uses the contract wrongly, on exactly the wrong lines', () => {
    const file = path.join(FIXTURES, 'misuses-the-contract.ts');
    const expected = expectedErrors(file);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(typeErrors(file).sort(byLine)).toEqual(expected.sort(byLine));
  }, 60_000);
});
