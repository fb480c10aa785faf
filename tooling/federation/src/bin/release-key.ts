#!/usr/bin/env node
// gatehouse-release-key <remote> [--out <file>]: a release signing key pair for a remote (decisions/0117). In this
// repository: npm run release-key -- <remote> (runs this file through tsx, no build needed).
import { runReleaseKeyCli } from '../release/keyCli';

runReleaseKeyCli(process.argv.slice(2), { cwd: process.cwd(), out: console.log, err: console.error }).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);
