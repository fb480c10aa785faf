// The install a team runs by hand (printed with --skip-install) is the one the scaffold runs itself: the registry
// e2e suite proves the latter gives a lockfile `npm ci` accepts in a fresh clone, so this holds the former to it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { npmInstallRepository, REPOSITORY_INSTALL } from './cli';

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-repository-install-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** A stand-in `npm` first on PATH that appends its arguments, working folder and npm settings to `calls`. */
function recordingNpm(exitCode: number): { bin: string; calls: string } {
  const bin = path.join(work, 'bin');
  const calls = path.join(work, 'calls');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/sh\necho "$* in $(pwd) audit=$npm_config_audit fund=$npm_config_fund prefer_offline=$npm_config_prefer_offline" >> "${calls}"\nexit ${exitCode}\n`,
    { mode: 0o755 },
  );
  return { bin, calls };
}

async function installWith(bin: string, dir: string): Promise<number> {
  const saved = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${saved}`;
  try {
    return await npmInstallRepository(dir);
  } finally {
    process.env.PATH = saved;
  }
}

test('the scaffold runs the printed command itself: npm install, twice, in the new repository', async () => {
  expect(REPOSITORY_INSTALL).toBe('npm install && npm install');
  const { bin, calls } = recordingNpm(0);
  const repository = fs.mkdtempSync(path.join(work, 'billing-'));
  expect(await installWith(bin, repository)).toBe(0);
  const line = `install in ${fs.realpathSync(repository)} audit=false fund=false prefer_offline=true`;
  expect(fs.readFileSync(calls, 'utf8')).toBe(`${line}\n${line}\n`);
});

test('a failed first install is not run again, and its exit code is the answer', async () => {
  const { bin, calls } = recordingNpm(3);
  expect(await installWith(bin, work)).toBe(3);
  expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
});
