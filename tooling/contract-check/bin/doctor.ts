#!/usr/bin/env node
// gatehouse-doctor https://<shell> [--ca <pem>] [--resolve <host>:<address>] [--allow-private]: checks a deployment
// from outside. In this repository: npm run doctor -- https://<shell> (runs this file through tsx, no build needed).
import { runDoctorCli } from '../src/doctor/doctorCli';

runDoctorCli(process.argv.slice(2), {
  // `npm run doctor` / `npm run contract-check` run at the repository's root: paths mean the folder they were typed in
  // (only then: INIT_CWD is inherited by anything an npm script starts, e.g. a test that runs this bin elsewhere)
  cwd: process.env.npm_lifecycle_event === 'doctor' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd(),
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
