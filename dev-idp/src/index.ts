// The declarations of oidc-provider (it ships none) come with this entry, so a package that imports it needs nothing more.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient module declaration cannot be imported
/// <reference path="./types/oidc-provider.d.ts" />
import { loadRealmFile, realmFromRepresentation } from './realm/loadRealm.js';
import type { LoadedRealm } from './realm/loadRealm.js';
import { masterRealm } from './realm/masterRealm.js';
import { ManagementServer } from './server/ManagementServer.js';
import { DevIdpServer } from './server/server.js';
import { RealmOverlays } from './server/RealmOverlays.js';
import { parseHostname, parseProxyHeaders } from './http/frontendUrl.js';
import type { RealmRepresentation } from './realm/representation.js';

export { RealmFileError } from './realm/RealmFileError.js';
export { FrontendOptionError } from './http/frontendUrl.js';
export { loadRealmFile } from './realm/loadRealm.js';
export { testRealm } from './testRealm.js';
export type { TestRealmOptions } from './testRealm.js';
export type {
  RealmRepresentation,
  ClientRepresentation,
  UserRepresentation,
  RoleRepresentation,
  CredentialRepresentation,
} from './realm/representation.js';

/** Loopback only unless told otherwise: realm `master`'s administrator owns every realm. */
const DEFAULT_HOST = '127.0.0.1';

/** Options of {@link startDevIdp}. */
export interface DevIdpOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Keycloak realm files to import at start. */
  realmFiles?: string[];
  /**
   * Realm overlay files (`--realm-overlay`): redirect URIs and web origins this machine adds to clients of the
   * realms (decisions/0051). A missing file adds nothing; each file is read at start and again when it changes.
   */
  realmOverlayFiles?: string[];
  /** Realm representations to import at start (the JSON of a realm file, already parsed). */
  realms?: RealmRepresentation[];
  /** Administrator of realm `master` for the admin REST API (default `admin` / `admin`). */
  adminUser?: string;
  adminPassword?: string;
  /** No banner and no warnings on the console. */
  quiet?: boolean;
  /**
   * Interface to bind (both ports); default `127.0.0.1`, so the admin API is not on the network.
   * Pass `0.0.0.0` to widen it.
   */
  host?: string;
  /**
   * Port of the management interface (`/health/live`, `/health/ready`, as Keycloak's on 9000);
   * 0 = a free one. Absent: no management interface.
   */
  managementPort?: number;
  /**
   * Keycloak's `--hostname` (`KC_HOSTNAME`): the full URL browsers reach the dev IdP at, e.g.
   * `https://sso.example.com` behind a TLS proxy. Issuer, endpoints and redirects are built on it, and requests
   * for that host name are accepted besides the loopback names.
   */
  hostname?: string;
  /**
   * Keycloak's `--proxy-headers xforwarded` (`KC_PROXY_HEADERS`): issuer and redirects follow
   * `X-Forwarded-Proto/Host/Port` (ignored without it). Only behind a proxy that sets them.
   */
  proxyHeaders?: string;
}

/** A running dev IdP. */
export interface DevIdp {
  /** Base URL, e.g. `http://localhost:8080` (the `url` of keycloak-js and of the admin client). */
  url: string;
  port: number;
  /** Management interface base URL (health), when `managementPort` was given. */
  managementUrl?: string;
  /** Stops the server and drops every realm and session. */
  close(): Promise<void>;
}

/**
 * Starts a Keycloak-compatible identity provider in this process: the realms of the given
 * files or representations, plus `master` for the admin API. Rejects with a
 * {@link RealmFileError} (naming the file and field) when a realm cannot be imported.
 *
 * @example
 * const idp = await startDevIdp({ realmFiles: ['deploy/keycloak/gatehouse-realm.json'], quiet: true });
 * // keycloak-js: new Keycloak({ url: idp.url, realm: 'gatehouse', clientId: 'gatehouse-shell' })
 * await idp.close();
 */
export async function startDevIdp(options: DevIdpOptions = {}): Promise<DevIdp> {
  const log = options.quiet ? () => {} : (line: string) => console.log(line);
  const warn = options.quiet ? () => {} : (line: string) => console.warn(`warning: ${line}`);
  const loaded: LoadedRealm[] = [];
  for (const file of options.realmFiles ?? []) loaded.push(await loadRealmFile(file));
  (options.realms ?? []).forEach((rep, i) => loaded.push(realmFromRepresentation(`realms[${i}]`, rep)));
  loaded.forEach(({ warnings }) => warnings.forEach(warn));

  const host = options.host ?? DEFAULT_HOST;
  const server = new DevIdpServer(
    {
      hostname: options.hostname === undefined ? undefined : parseHostname(options.hostname),
      proxyHeaders: options.proxyHeaders === undefined ? undefined : parseProxyHeaders(options.proxyHeaders),
    },
    warn,
  );
  let started!: () => void;
  server.holdRequestsUntil(new Promise<void>((resolve) => (started = resolve)));
  const port = await server.listen(options.port ?? 0, host);
  let management: ManagementServer | undefined;
  let managementUrl: string | undefined;
  if (options.managementPort !== undefined) {
    management = new ManagementServer();
    try {
      managementUrl = `http://localhost:${await management.listen(options.managementPort, host)}`;
    } catch (error) {
      await server.close();
      throw error;
    }
  }
  const overlays = new RealmOverlays(options.realmOverlayFiles ?? [], (name) => server.realms.get(name)?.realm, {
    log,
    warn,
    error: (line) => console.error(line),
  });
  let overlaid: string[];
  try {
    await server.addRealm(masterRealm(options.adminUser ?? 'admin', options.adminPassword ?? 'admin'));
    for (const { realm } of loaded) await server.addRealm(realm);
    overlaid = await overlays.applyAll();
  } catch (error) {
    await management?.close();
    await server.close();
    throw error;
  } finally {
    started();
  }
  overlays.watch();

  log(`Gatehouse dev IdP (Keycloak-compatible) on ${server.baseUrl}`);
  for (const { realm } of loaded) {
    const users = realm.users.map((u) => u.username).join(', ') || '(none)';
    log(`  realm ${realm.name}: ${server.baseUrl}/realms/${realm.name} — users ${users}`);
  }
  overlaid.forEach(log);
  log(`  admin API: ${server.baseUrl}/admin (realm master, ${options.adminUser ?? 'admin'})`);
  if (managementUrl) log(`  health: ${managementUrl}/health/live, /health/ready`);
  if (host !== DEFAULT_HOST) log(`  listening on ${host}: the admin API is reachable from other machines`);
  if (options.proxyHeaders)
    log(`  trusting X-Forwarded-Proto/Host/Port (--proxy-headers ${options.proxyHeaders}): only behind a proxy that sets them`);
  return {
    url: server.baseUrl,
    port,
    managementUrl,
    close: async () => {
      overlays.close();
      await management?.close();
      await server.close();
    },
  };
}
