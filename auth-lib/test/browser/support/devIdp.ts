import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

export interface RunningIdp {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `@gatehouse/dev-idp` in a child process with the given realm representations. */
export async function startIdp(realms: readonly object[] = []): Promise<RunningIdp> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'idp-process.mts')], {
    cwd: join(__dirname, '..', '..', '..'),
    env: { ...process.env, GATEHOUSE_TEST_REALMS: JSON.stringify(realms) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the dev identity provider did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`the dev identity provider exited with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
