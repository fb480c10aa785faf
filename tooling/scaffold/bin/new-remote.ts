// npm run new-remote -- <name> [options]   (node --import tsx tooling/scaffold/bin/new-remote.ts)
import { runBin } from '@gatehouse/contract-check';
import { runNewRemote } from '../src/cli';

// relative folders mean the one the command was typed in; a throw is a refusal (1), as runNewRemote's own
runBin(runNewRemote, { npmScript: 'new-remote', exitCodeOnThrow: 1 });
