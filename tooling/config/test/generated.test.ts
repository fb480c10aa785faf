import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The validators are compiled from config.schema.json when the package is installed or built, never committed; the
// Node entry refuses a missing file or one compiled from another schema text, naming what to run.
const PACKAGE = resolve(__dirname, '..');
let copy: string;

beforeEach(() => {
  // inside the repository, so the generator finds Ajv in its node_modules
  copy = mkdtempSync(join(PACKAGE, '.test-copy-'));
  for (const entry of ['package.json', 'config.schema.json', 'src', 'scripts'])
    cpSync(join(PACKAGE, entry), join(copy, entry), { recursive: true });
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

/** Loads the copy's Node entry in a fresh Node; its error message, or '' when it loads. */
function load(): string {
  const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(copy, 'src/index.cjs'))})`], { encoding: 'utf8' });
  return run.status === 0 ? '' : run.stderr;
}

test('the file the build writes is what the schema compiles to, and the entry loads it', () => {
  expect(load()).toBe('');
  execFileSync(process.execPath, [join(copy, 'scripts/generate.mjs')], { cwd: PACKAGE, stdio: 'pipe' });
  for (const file of ['src/validators.generated.cjs', 'src/accepts.generated.cjs']) {
    expect(readFileSync(join(copy, file), 'utf8')).toBe(readFileSync(join(PACKAGE, file), 'utf8'));
  }
});

test('an edited schema is refused until the validators are compiled again', () => {
  const schema = JSON.parse(readFileSync(join(copy, 'config.schema.json'), 'utf8')) as { description: string };
  writeFileSync(join(copy, 'config.schema.json'), JSON.stringify({ ...schema, description: `${schema.description} (edited)` }, null, 2));
  expect(load()).toContain('was compiled from another config.schema.json (npm ci, or npm run build -w @gatehouse/config, writes it again)');

  execFileSync(process.execPath, [join(copy, 'scripts/generate.mjs')], { cwd: PACKAGE, stdio: 'pipe' });
  expect(load()).toBe('');
});

test('a missing file is refused with what writes it', () => {
  rmSync(join(copy, 'src/validators.generated.cjs'));
  expect(load()).toContain(
    'validators.generated.cjs is missing (it is compiled from config.schema.json; npm ci, or npm run build -w @gatehouse/config, writes it)',
  );
});
