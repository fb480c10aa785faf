#!/usr/bin/env node
// gatehouse-doctor https://<shell> [--ca <pem>] [--resolve <host>:<address>]: checks a deployment from outside.
import { runDoctorCli } from '../src/doctor/doctorCli';

runDoctorCli(process.argv.slice(2), {
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
