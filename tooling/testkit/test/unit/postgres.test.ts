import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBin, startPostgres } from '../../src/postgres';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'testkit-postgres-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function executable(file: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
}

test("finds the newest of Debian's /usr/lib/postgresql/<major>/bin, else initdb's folder on PATH, else none", () => {
  const debian = join(root, 'usr-lib-postgresql');
  executable(join(debian, '13/bin/postgres'));
  executable(join(debian, '15/bin/postgres'));
  mkdirSync(join(debian, '17/bin'), { recursive: true }); // a leftover folder without the server
  expect(findPostgresBin(debian, '')).toBe(join(debian, '15/bin'));

  const onPath = join(root, 'opt/pg/bin');
  executable(join(onPath, 'initdb'));
  expect(findPostgresBin(join(root, 'none'), `/nowhere:${onPath}`)).toBe(onPath);
  expect(findPostgresBin(join(root, 'none'), '/nowhere')).toBeNull();
});

test('without the binaries, says what to install', async () => {
  await expect(startPostgres({ port: 1, bin: join(root, 'none') })).rejects.toThrow(
    /initdb was not found .* Install it with `.*postgresql/,
  );
});
