import { startKeycloak } from '@gatehouse/testkit/keycloak';
import { startProcess, waitForUrl } from '@gatehouse/testkit/processes';
import { join } from 'node:path';
import { REPO_ROOT } from '../../production/support/previewProcess';
import { onKeycloak } from '../../support/provider';
import { freePort } from '@gatehouse/testkit/ports';

/** The identity provider behind the suite's nginx: where nginx and the admin API reach it, and how to stop it. */
export interface ProxiedIdentityProvider {
  /** plain HTTP on loopback, with the relative path if any: the admin API's address */
  readonly upstream: string;
  /** what nginx's proxy_pass names: the upstream without a path (nginx passes /auth/… as it is) */
  readonly proxyPass: string;
  stop(): Promise<void>;
}

/**
 * The dev identity provider on a free loopback port, answering as `publicUrl` behind nginx (Keycloak's
 * `--hostname` and `--proxy-headers xforwarded`: issuer, endpoints, redirects and `Secure; SameSite=None`
 * cookies from it). It serves at the root only: no relative path.
 */
async function startDevProvider(publicUrl: string): Promise<ProxiedIdentityProvider> {
  const port = await freePort();
  const upstream = `http://localhost:${port}`;
  const idp = startProcess(
    process.execPath,
    [
      join(REPO_ROOT, 'dev-idp/bin/gatehouse-dev-idp.mjs'),
      ...['--port', String(port), '--management-port', '0', '--quiet'],
      ...['--realm', join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.json')],
      ...['--hostname', publicUrl, '--proxy-headers', 'xforwarded'],
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
    throw error;
  }
  return { upstream, proxyPass: upstream, stop: () => idp.stop() };
}

/**
 * A real Keycloak 26 for one topology (`GATEHOUSE_IDP=keycloak`), as production runs it behind a TLS proxy:
 * `--hostname <publicUrl>` (hostname v2: the URL carries the suite's free port) and `--proxy-headers xforwarded`,
 * plus `--http-relative-path` when it sits under a path of the shell's origin. Its homes are its own
 * (`.keycloak/https*`, one per relative path, a build option), so `npm run keycloak` may run beside it.
 */
async function startKeycloakBehindProxy(publicUrl: string, relativePath: string | undefined): Promise<ProxiedIdentityProvider> {
  const [httpPort, managementPort] = [await freePort(), await freePort()];
  const keycloak = await startKeycloak({
    dir: join(REPO_ROOT, '.keycloak', relativePath ? `https${relativePath.replaceAll('/', '-')}` : 'https'),
    httpPort,
    managementPort,
    behindProxy: { publicUrl, ...(relativePath ? { relativePath } : {}) },
    quickStart: true,
    // the Keycloak on :8080 (`npm run keycloak`, test:keycloak's), built for the same options unless a relative path
    buildFrom: join(REPO_ROOT, '.keycloak'),
    log: (message) => process.stderr.write(`[keycloak ${publicUrl}] ${message}\n`),
  });
  process.stdout.write(`[keycloak] ${publicUrl}: ready in ${(keycloak.startedInMs / 1000).toFixed(1)} s\n`);
  return { upstream: keycloak.url, proxyPass: `http://localhost:${httpPort}`, stop: keycloak.stop };
}

/**
 * The provider of this run (GATEHOUSE_IDP) answering as `publicUrl` behind nginx. `relativePath` ("/auth"):
 * the provider serves under that path, which only Keycloak does.
 */
export function startIdentityProvider(publicUrl: string, relativePath?: string): Promise<ProxiedIdentityProvider> {
  if (onKeycloak) return startKeycloakBehindProxy(publicUrl, relativePath);
  if (relativePath)
    throw new Error(`the dev identity provider serves at the root only; "${relativePath}" needs Keycloak (GATEHOUSE_IDP=keycloak)`);
  return startDevProvider(publicUrl);
}
