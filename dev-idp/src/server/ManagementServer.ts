import { createServer } from 'node:http';
import type { Server } from 'node:http';

import { sendJson } from '../http/respond.js';

/**
 * Keycloak's management interface (port 9000 with `KC_HEALTH_ENABLED=true`): `GET /health/live`
 * and `/health/ready` answer `{"status":"UP","checks":[]}`. On its own port, as in Keycloak, so a
 * health probe never reaches the realms.
 */
export class ManagementServer {
  readonly #server: Server;

  constructor() {
    this.#server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'HTTP 405 Method Not Allowed' });
      if (path === '/health' || path === '/health/live' || path === '/health/ready' || path === '/health/started') {
        return sendJson(res, 200, { status: 'UP', checks: [] });
      }
      sendJson(res, 404, { error: 'Resource not found' });
    });
  }

  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => resolve());
    });
    const address = this.#server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
