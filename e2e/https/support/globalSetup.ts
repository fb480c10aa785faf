import { createTestCa } from '@gatehouse/testkit/tls';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureProductionBuilds } from '../../production/support/globalSetup';
import { ALL_HOSTS, type SuiteState } from './sites';

/**
 * Once per run: the production builds (shared with the production suite), and a throwaway CA with one
 * certificate for every host of the suite. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureProductionBuilds('https e2e');
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-https-'));
  mkdirSync(join(work, 'tls'));
  const ca = createTestCa({ dir: join(work, 'tls') });
  const leaf = ca.issue(ALL_HOSTS, 'gatehouse-test');

  const state: SuiteState = {
    work,
    certFile: leaf.certFile,
    keyFile: leaf.keyFile,
    spkiSha256: leaf.spkiSha256,
  };
  // Workers inherit the environment globalSetup leaves behind.
  process.env.GATEHOUSE_HTTPS_STATE = JSON.stringify(state);
  return async () => {
    rmSync(work, { recursive: true, force: true });
  };
}
