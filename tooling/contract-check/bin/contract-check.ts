#!/usr/bin/env node
// gatehouse-contract-check [--remote <dir>] [--shell <url or dir>]   (inside this repository:
// npm run contract-check -- …, or npm run check -w remotes/<name>: both run this file through tsx, no build needed)
import { runContractCheckCli } from '../src/deployedShellCli';
import { runBin } from '../src/runBin';

runBin(runContractCheckCli, { npmScript: 'contract-check', exitCodeOnThrow: 2 });
