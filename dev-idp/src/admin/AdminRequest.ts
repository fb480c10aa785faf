import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RealmRuntime } from '../server/RealmRuntime.js';
import type { RealmDirectory } from '../server/RealmDirectory.js';

/** One admin REST call, authorised, with the realm of its path resolved (when it names one). */
export interface AdminRequest {
  server: RealmDirectory;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Captures of the route pattern after the realm name (ids, role names). */
  params: string[];
  /** The realm named in the path (routes under `/admin/realms/{realm}`). */
  runtime: RealmRuntime;
  /** The parsed JSON body (undefined for GET/DELETE or an empty body). */
  body: unknown;
}

export type AdminHandler = (request: AdminRequest) => Promise<void> | void;

/** Keycloak's admin error body. */
export class AdminError extends Error {
  /** the HTTP status code the admin API answers with (the discriminator is `code`, as in AuthError and RemoteLoadError) */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}
