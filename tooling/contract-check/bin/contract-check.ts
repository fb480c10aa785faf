#!/usr/bin/env node
// gatehouse-contract-check [--remote <dir>] [--shell <url or dir>]   (inside this repository:
// npm run check -w remotes/<name>, which runs this file through tsx)
import { runContractCheckCli } from '../src/deployedShellCli';

runContractCheckCli(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
