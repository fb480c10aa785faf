import { loadRealmFile, realmFromRepresentation } from './realm/loadRealm.js';
import type { LoadedRealm } from './realm/loadRealm.js';
import { masterRealm } from './realm/masterRealm.js';
import { DevIdpServer } from './server.js';
import type { RealmRepresentation } from './realm/representation.js';

export { RealmFileError } from './realm/RealmFileError.js';
export { loadRealmFile } from './realm/loadRealm.js';
export { testRealm } from './testRealm.js';
export type { TestRealmOptions } from './testRealm.js';
export type {
  RealmRepresentation, ClientRepresentation, UserRepresentation, RoleRepresentation, CredentialRepresentation,
} from './realm/representation.js';

/** Options of {@link startDevIdp}. */
export interface DevIdpOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Keycloak realm files to import at start. */
  realmFiles?: string[];
  /** Realm representations to import at start (the JSON of a realm file, already parsed). */
  realms?: RealmRepresentation[];
  /** Administrator of realm `master` for the admin REST API (default `admin` / `admin`). */
  adminUser?: string;
  adminPassword?: string;
  /** No banner and no warnings on the console. */
  quiet?: boolean;
  /** Interface to bind; default: all (like Keycloak in dev mode). */
  host?: string;
}

/** A running dev IdP. */
export interface DevIdp {
  /** Base URL, e.g. `http://localhost:8080` (the `url` of keycloak-js and of the admin client). */
  url: string;
  port: number;
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

  const server = new DevIdpServer();
  const port = await server.listen(options.port ?? 0, options.host);
  await server.addRealm(masterRealm(options.adminUser ?? 'admin', options.adminPassword ?? 'admin'));
  for (const { realm } of loaded) await server.addRealm(realm);

  log(`Gatehouse dev IdP (Keycloak-compatible) on ${server.baseUrl}`);
  for (const { realm } of loaded) {
    const users = realm.users.map((u) => u.username).join(', ') || '(none)';
    log(`  realm ${realm.name}: ${server.baseUrl}/realms/${realm.name} — users ${users}`);
  }
  log(`  admin API: ${server.baseUrl}/admin (realm master, ${options.adminUser ?? 'admin'})`);
  return { url: server.baseUrl, port, close: () => server.close() };
}
