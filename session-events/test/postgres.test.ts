// Two instances on one PostgreSQL (a throwaway cluster on a free port, testkit's startPostgres): a logout token taken by
// one reaches the other's subscribers, a token replayed at the other is refused, and with the database gone both say
// so (400 to the provider, 503 to pages, streams closed) instead of promising what they cannot deliver.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { startPostgres } from '@gatehouse/testkit/postgres';
import type { RunningPostgres } from '@gatehouse/testkit/postgres';

import { PostgresBus, startSessionEvents } from '../src/index.js';
import type { SessionEvents } from '../src/index.js';
import { accessToken, dpopKey, logoutToken, postLogout, startRealm, subscribe } from './support/realm.js';
import type { DpopKey, Realm } from './support/realm.js';

let realm: Realm;
let postgres: RunningPostgres;
let one: SessionEvents;
let two: SessionEvents;
let key: DpopKey;
const controllers: AbortController[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

before(async () => {
  realm = await startRealm();
  postgres = await startPostgres({ port: await freePort(), database: 'events', username: 'events' });
  const databaseUrl = `postgres://events@127.0.0.1:${postgres.port}/events`;
  one = await startSessionEvents({ port: 0, issuer: realm.issuer, databaseUrl, quiet: true });
  two = await startSessionEvents({ port: 0, issuer: realm.issuer, databaseUrl, quiet: true });
  key = await dpopKey();
});

after(async () => {
  for (const controller of controllers) controller.abort();
  await one?.close();
  await two?.close();
  await postgres?.stop();
  await realm?.close();
});

const subscribed = async (service: SessionEvents, sid: string) => {
  const controller = new AbortController();
  controllers.push(controller);
  const s = await subscribe(service, await accessToken(realm, { sid, key }), key, { signal: controller.signal });
  assert.equal(s.response.status, 200);
  await s.next('ready');
  return s;
};

describe('two instances on PostgreSQL', () => {
  test("a logout token posted to one reaches the other's subscriber, and only that session's", async () => {
    const onTwo = await subscribed(two, 'pg-A');
    const otherOnTwo = await subscribed(two, 'pg-B');
    const onOne = await subscribed(one, 'pg-A');
    assert.equal((await postLogout(one.url, await logoutToken(realm, { sid: 'pg-A' }))).status, 200);
    await onTwo.next('session-ended');
    await onOne.next('session-ended');
    assert.equal(otherOnTwo.events.filter((e) => e.event === 'session-ended').length, 0);
  });

  test('a token taken by one is refused when replayed at the other (jti)', async () => {
    const token = await logoutToken(realm, { sid: 'pg-replay' });
    assert.equal((await postLogout(one.url, token)).status, 200);
    const replayed = await postLogout(two.url, token);
    assert.equal(replayed.status, 400);
    assert.match(((await replayed.json()) as { error_description: string }).error_description, /used before/);
  });

  test('a page that subscribes at the other after the end hears it at once', async () => {
    assert.equal((await postLogout(two.url, await logoutToken(realm, { sid: 'pg-late' }))).status, 200);
    const late = await subscribe(one, await accessToken(realm, { sid: 'pg-late', key }), key);
    await late.next('session-ended');
  });

  test('the database stopped: open streams close (event unavailable), new ones get 503, logout tokens 400, health 503', async () => {
    const stream = await subscribed(one, 'pg-down');
    await postgres.stop();
    const closed = await stream.next('unavailable', 5000);
    assert.deepEqual(JSON.parse(closed.data), { reason: 'database' });
    const page = await subscribe(two, await accessToken(realm, { sid: 'pg-down-2', key }), key);
    assert.equal(page.response.status, 503);
    assert.ok(page.response.headers.get('retry-after'));
    const logout = await postLogout(one.url, await logoutToken(realm, { sid: 'pg-down' }));
    assert.equal(logout.status, 400);
    assert.equal(((await logout.json()) as { error: string }).error, 'temporarily_unavailable');
    assert.equal((await fetch(`${one.url}/health`)).status, 503);
  });

  test('without a reachable database the service does not start (it would promise what it cannot deliver)', async () => {
    await assert.rejects(PostgresBus.connect({ connectionString: `postgres://events@127.0.0.1:${await freePort()}/events` }));
  });
});
