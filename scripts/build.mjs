#!/usr/bin/env node
// `npm run build`: every workspace's production build (lerna), the remotes' releases signed (decisions/0117) with the
// team key in GATEHOUSE_RELEASE_KEY(_FILE) when one is given, else with this machine's local release key, which
// `npm run preview` pins: the production topology always verifies its remotes.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildEnvironment } from './releaseKey.cjs';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const { env, signer } = buildEnvironment();
process.stderr.write(`[build] the remotes' releases are signed with ${signer}\n`);
const build = spawn('npx', ['lerna', 'run', 'build', '--stream', ...process.argv.slice(2)], { cwd: REPO_ROOT, env, stdio: 'inherit' });
build.once('error', (error) => {
  process.stderr.write(`[build] could not run lerna: ${error.message}\n`);
  process.exit(1);
});
build.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
