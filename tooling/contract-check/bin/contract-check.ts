// `npm run check -w remotes/<name>`: node --import tsx ../../tooling/contract-check/bin/contract-check.ts
import { runContractCheck } from '../src/cli';

process.exitCode = runContractCheck(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
