#!/usr/bin/env node
// gatehouse-doctor https://<shell> [--ca <pem>] [--resolve <host>:<address>] [--allow-private]: checks a deployment
// from outside. In this repository: npm run doctor -- https://<shell> (runs this file through tsx, no build needed).
import { runDoctorCli } from '../src/doctor/doctorCli';
import { runBin } from '../src/runBin';

runBin(runDoctorCli, { npmScript: 'doctor', exitCodeOnThrow: 2 });
