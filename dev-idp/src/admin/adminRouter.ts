import type { IncomingMessage, ServerResponse } from 'node:http';

import { sendJson } from '../http/respond.js';
import type { DevIdpServer } from '../server.js';

export async function handleAdmin(_server: DevIdpServer, _req: IncomingMessage, res: ServerResponse, _url: URL): Promise<void> {
  sendJson(res, 404, { error: 'not yet' });
}
