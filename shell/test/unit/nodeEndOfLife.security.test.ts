// Security round: the preflight warns about a Node major past its end of life (Node 20: 2026-04-30)
// instead of accepting it silently.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = pathToFileURL(resolve(__dirname, '../../../scripts/nodeEndOfLife.mjs')).href;

function warning(version: string, today: string): string {
  const code = `import(${JSON.stringify(MODULE)}).then((m) => process.stdout.write(String(m.endOfLifeWarning(${JSON.stringify(version)}, new Date(${JSON.stringify(today)})))))`;
  const run = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

test('Node 20 after 2026-04-30 gets a warning that names the date and what to do', () => {
  expect(warning('20.19.4', '2026-11-25')).toBe(
    'Node 20.19.4 reached its end of life on 2026-04-30: it gets no more security fixes. Gatehouse still runs on it, ' +
      'but move to Node 22 or 24 (.nvmrc names the one to use; with nvm: `nvm install`).',
  );
});

test('Node 20 before its end of life, and Node 22 and 24 now, get none', () => {
  expect(warning('20.19.4', '2026-04-29')).toBe('null');
  expect(warning('22.12.0', '2026-11-25')).toBe('null');
  expect(warning('24.1.0', '2026-11-25')).toBe('null');
});
