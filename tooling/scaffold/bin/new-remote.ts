// npm run new-remote -- <name> [options]   (node --import tsx tooling/scaffold/bin/new-remote.ts)
import { runNewRemote } from '../src/cli';

runNewRemote(process.argv.slice(2), {
  // npm run changes to the repository root; relative folders mean the one the command was typed in
  cwd: process.env.INIT_CWD ?? process.cwd(),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
