/** What a command of the Gatehouse tooling is given by its bin: where it was typed, and the console. */
export interface BinIo {
  readonly cwd: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export interface BinOptions {
  /** the root package.json script that runs the bin (`npm run <script>`) */
  readonly npmScript: string;
  /** the exit code when the command throws instead of resolving to one */
  readonly exitCodeOnThrow: number;
}

/**
 * The folder relative paths mean: the one the command was typed in. `npm run <script>` at the repository's root
 * changes to the root and keeps that folder in INIT_CWD; it is used only under that script, because INIT_CWD is
 * inherited by anything an npm script starts (e.g. a test that runs the bin elsewhere).
 */
export function invocationDir(npmScript: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return env.npm_lifecycle_event === npmScript && env.INIT_CWD ? env.INIT_CWD : cwd;
}

/**
 * Runs `command` as this process (the bins of gatehouse-contract-check, gatehouse-doctor and new-remote): with the
 * process's arguments and console, its exit code the process's.
 */
export function runBin(command: (argv: readonly string[], io: BinIo) => Promise<number>, options: BinOptions): void {
  const io: BinIo = { cwd: invocationDir(options.npmScript), out: (text) => console.log(text), err: (text) => console.error(text) };
  command(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = options.exitCodeOnThrow;
    },
  );
}
