import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Runs the dev IdP's command line (`bin/gatehouse-dev-idp.mjs <args>`, from the package's folder, with `env` over this
 * process's) until what it prints includes `ready`; then `use` with that output, and stops it whatever `use` did. Its
 * output is read on without stopping: a closed pipe would end the server at its next line.
 */
export async function withCli(
  args: readonly string[],
  env: Record<string, string>,
  ready: string,
  use: (output: string) => Promise<void>,
): Promise<void> {
  const cli = spawn(process.execPath, ['bin/gatehouse-dev-idp.mjs', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let output = '';
    await new Promise<void>((resolve, reject) => {
      cli.stdout.on('data', (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes(ready)) resolve();
      });
      cli.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before it printed "${ready}":\n${output}`)));
    });
    await use(output);
  } finally {
    if (cli.exitCode === null && cli.signalCode === null) {
      cli.kill('SIGTERM');
      await once(cli, 'exit');
    }
  }
}
