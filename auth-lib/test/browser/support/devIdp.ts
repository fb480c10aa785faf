import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { startProcess } from '@gatehouse/testkit/processes';

export interface RunningIdp {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts `@gatehouse/dev-idp` in a child process with the given realm representations: a process group of its own
 * on this worker's leash, so a worker that dies before closing it takes it along (decisions/0107).
 */
export async function startIdp(realms: readonly object[] = []): Promise<RunningIdp> {
  const idp = startProcess(process.execPath, ['--import', 'tsx', join(__dirname, 'idp-process.mts')], {
    cwd: join(__dirname, '..', '..', '..'),
    env: { ...process.env, GATEHOUSE_TEST_REALMS: JSON.stringify(realms) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { child } = idp;
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
    close: () => idp.stop(),
  };
}
