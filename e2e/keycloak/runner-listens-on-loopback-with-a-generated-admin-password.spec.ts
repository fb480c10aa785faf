import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD_FILE } from '@gatehouse/testkit/keycloak';
import { readFileSync, statSync } from 'node:fs';
import { IDP } from '../support/system';

// Security round three: the Keycloak of `npm run keycloak` / `npm run test:keycloak` (kc.sh start-dev)
// listens on loopback only, its management port too (start-dev's own default binds that one to every interface),
// and its administrator's password is the generated one of .keycloak/admin-password, not admin/admin.

/** The local addresses of the listening TCP sockets on `port` (Linux: /proc/net/tcp and tcp6). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))
      .map((fields) => {
        const hex = (fields[1] ?? '').split(':')[0] ?? '';
        // IPv4, or IPv4 mapped into IPv6 (::ffff:a.b.c.d, as Java listens): four bytes, little-endian
        const ipv4 = hex.length === 8 ? hex : hex.startsWith('0000000000000000FFFF0000') ? hex.slice(24) : null;
        if (ipv4)
          return (ipv4.match(/../g) ?? [])
            .reverse()
            .map((byte) => parseInt(byte, 16))
            .join('.');
        return hex === '0'.repeat(32) ? '::' : `IPv6 ${hex}`;
      }),
  );
}

test('the HTTP and management ports listen on loopback only', async () => {
  const health = await fetch('http://127.0.0.1:9000/health/live');
  expect(health.status).toBe(200);
  for (const port of [Number(new URL(IDP).port), 9000]) {
    const addresses = listeningAddresses(port);
    expect({ port, addresses }).toEqual({ port, addresses: addresses.length > 0 ? addresses.map(() => '127.0.0.1') : ['127.0.0.1'] });
  }
});

test("realm master's password grant refuses admin/admin and takes the generated password, kept in a 0600 file", async () => {
  const grant = (password: string) =>
    fetch(`${IDP}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password }),
    });
  const guessed = await grant('admin');
  expect(guessed.status).toBe(400);
  expect(await guessed.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });

  expect(statSync(ADMIN_PASSWORD_FILE).mode & 0o777).toBe(0o600);
  const generated = await grant(readFileSync(ADMIN_PASSWORD_FILE, 'utf8').trim());
  expect(generated.status).toBe(200);
});
