import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RealmRuntime } from '../server/RealmRuntime.js';

/** One request to `/realms/{realm}/…`, as a realm endpoint sees it. */
export interface RealmRequest {
  runtime: RealmRuntime;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Captures of the route's pattern (e.g. the interaction uid). */
  params: string[];
  /** Hands the request to the realm's oidc-provider instead. */
  forward: () => void;
}

export type RealmHandler = (request: RealmRequest) => Promise<void> | void;
