'use strict';
// A port nothing listens on right now, for the tests that start real servers (no fixed port to collide on).

const { createServer } = require('node:net');

/** @returns {Promise<number>} */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`unexpected address ${String(address)}`);
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return address.port;
}

module.exports = { freePort };
