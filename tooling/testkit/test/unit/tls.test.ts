// The throwaway CA's certificates pass a real TLS handshake for the names they were issued for, and only those.

import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { connect } from 'node:tls';
import { createTestCa } from '../../src/tls';

let ca: import('../../src/tls').TestCa;
let server: import('node:https').Server;
let port: number;

beforeAll(async () => {
  ca = createTestCa();
  const leaf = ca.issue(['portal.gatehouse.test', 'sso.gatehouse.test']);
  server = createServer({ cert: readFileSync(leaf.certFile), key: readFileSync(leaf.keyFile) }, (_, response) => response.end('ok'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${String(address)}`);
  port = address.port;
});

afterAll(() => {
  server.close();
  ca.remove();
});

/**
 * The handshake's outcome when connecting as `servername`, trusting `caFile` (and nothing else).
 *
 * @returns 'authorized', or the verification error's code
 */
function handshake(servername: string, caFile: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername, ca: readFileSync(caFile), rejectUnauthorized: false }, () => {
      const error = socket.authorizationError;
      resolve(socket.authorized ? 'authorized' : String(error instanceof Error ? (error as NodeJS.ErrnoException).code : error));
      socket.end();
    });
    socket.once('error', (error) => resolve(`socket error: ${error.message}`));
  });
}

test('a leaf is trusted through the CA for each name it was issued for', async () => {
  assert.equal(await handshake('portal.gatehouse.test', ca.certFile), 'authorized');
  assert.equal(await handshake('sso.gatehouse.test', ca.certFile), 'authorized');
});

test('a leaf is refused for a name it was not issued for', async () => {
  assert.equal(await handshake('sso.idp-vendor.test', ca.certFile), 'ERR_TLS_CERT_ALTNAME_INVALID');
});

test('a leaf is refused by a client that trusts another CA', async () => {
  const other = createTestCa();
  try {
    assert.equal(await handshake('portal.gatehouse.test', other.certFile), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  } finally {
    other.remove();
  }
});

test('bad host names are refused with a message that says what to pass', () => {
  assert.throws(
    () => ca.issue(['https://portal.gatehouse.test']),
    /Not a DNS name a certificate can carry: https:\/\/portal\.gatehouse\.test\. Pass bare host names/,
  );
  assert.throws(() => ca.issue([]), /needs at least one host name/);
});

test("the SPKI hash is the one Chromium's --ignore-certificate-errors-spki-list expects (openssl's own)", () => {
  const leaf = ca.issue(['profile.gatehouse-cdn.test'], 'cdn');
  const fromOpenssl = execSync(
    `openssl x509 -pubkey -noout -in '${leaf.certFile}' | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
    { encoding: 'utf8' },
  ).trim();
  assert.equal(leaf.spkiSha256, fromOpenssl);
});

test('remove() deletes every key', () => {
  const throwaway = createTestCa();
  throwaway.remove();
  assert.equal(existsSync(throwaway.dir), false);
});
