import { startProcess, waitForUrl } from '@gatehouse/testkit/processes';
import { createTestCa } from '@gatehouse/testkit/tls';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureProductionBuilds } from '../../production/support/globalSetup';
import { REPO_ROOT } from '../../production/support/previewProcess';
import { freePort } from './freePort';
import { ALL_HOSTS, type SuiteState } from './sites';

/**
 * Once per run: the production builds (shared with the production suite), a throwaway CA and one
 * certificate for every host of the suite, and one dev identity provider on a free port for every spec
 * (each spec makes its own realm). Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureProductionBuilds('https e2e');
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-https-'));
  mkdirSync(join(work, 'tls'));
  const ca = createTestCa({ dir: join(work, 'tls') });
  const leaf = ca.issue(ALL_HOSTS, 'gatehouse-test');

  const port = await freePort();
  const upstream = `http://localhost:${port}`;
  const idp = startProcess(
    process.execPath,
    [
      join(REPO_ROOT, 'dev-idp/bin/gatehouse-dev-idp.mjs'),
      ...['--port', String(port), '--management-port', '0', '--quiet'],
      ...['--realm', join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.json')],
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    await waitForUrl(`${upstream}/realms/master/.well-known/openid-configuration`, {
      name: 'the dev identity provider',
      child: idp.child,
      timeoutMs: 60_000,
    });
  } catch (error) {
    await idp.stop();
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  const state: SuiteState = {
    work,
    certFile: leaf.certFile,
    keyFile: leaf.keyFile,
    spkiSha256: leaf.spkiSha256,
    identityProviderUpstream: upstream,
  };
  // Workers inherit the environment globalSetup leaves behind.
  process.env.GATEHOUSE_HTTPS_STATE = JSON.stringify(state);
  return async () => {
    await idp.stop();
    rmSync(work, { recursive: true, force: true });
  };
}
