import type { Realm } from '../realm/model.js';
import type { RealmRuntime } from './RealmRuntime.js';

/**
 * The realms being served, as the admin API sees them: it adds, reads and removes realms through this and
 * never through the HTTP server (server.ts implements it), so the server depends on the admin handlers and
 * not the other way round.
 */
export interface RealmDirectory {
  readonly realms: Map<string, RealmRuntime>;
  /** `http://localhost:<port>`: the admin API's `Location` headers are built on it */
  readonly baseUrl: string;
  addRealm(realm: Realm): Promise<RealmRuntime>;
  removeRealm(name: string): boolean;
}
