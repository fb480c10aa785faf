import type { IncomingMessage } from 'node:http';

import type { RealmDirectory } from '../server/RealmDirectory.js';
import { bearerToken, verifyAccessToken } from '../tokens/tokens.js';
import { AdminError } from './AdminRequest.js';

/**
 * The admin API accepts access tokens of realm `master` whose user has its realm role
 * `admin` (what `admin-cli` gets for the administrator by the password grant).
 */
export async function authorizeAdmin(server: RealmDirectory, req: IncomingMessage): Promise<void> {
  const master = server.realms.get('master');
  const access = master ? await verifyAccessToken(master, bearerToken(req)) : undefined;
  if (!access) throw new AdminError(401, 'HTTP 401 Unauthorized');
  const roles = (access.payload.realm_access as { roles?: string[] } | undefined)?.roles ?? [];
  if (!roles.includes('admin')) throw new AdminError(403, 'HTTP 403 Forbidden');
}
