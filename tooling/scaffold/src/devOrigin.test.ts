import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REALM_OVERLAY } from './devOrigin';
import { newRemote } from './newRemote';
import { parseOptions } from './options';
import { newOutsideRemote } from './outside';
import { makeTestRepo, pinningRegistry, snapshotFiles } from './testRepo';

let root: string;
let work: string;
/** --registry, and the check that pins every package (the registry itself is outsideRegistry.test.ts's) */
let REGISTRY: ReturnType<typeof pinningRegistry>;
beforeEach(() => {
  root = makeTestRepo();
  REGISTRY = pinningRegistry(root);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dev-origin-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const overlay = () => JSON.parse(fs.readFileSync(path.join(root, REALM_OVERLAY), 'utf8'));
const freePort = async () => true;
const inside = (name: string, port: string) => newRemote(parseOptions([name, '--port', port]).options, root, freePort);

test('inside: the new remote’s dev address goes into the realm overlay the dev provider reads', async () => {
  const result = await inside('billing', '3050');
  expect(result).toMatchObject({ ok: true, changed: expect.arrayContaining([REALM_OVERLAY]) });
  expect(overlay()).toEqual({
    realm: 'gatehouse',
    clients: [{ clientId: 'gatehouse-shell', redirectUris: ['http://localhost:3050/*'], webOrigins: ['http://localhost:3050'] }],
  });
});

test('outside: the overlay of this checkout gets the remote’s dev address; running it twice adds it once', async () => {
  const first = await newOutsideRemote(
    { name: 'billing', dir: path.join(work, 'billing'), port: 3060, registry: REGISTRY.registry },
    root,
    REGISTRY.check,
  );
  expect(first).toMatchObject({ ok: true, changed: [REALM_OVERLAY] });
  const once = overlay();
  const second = await newOutsideRemote(
    { name: 'billing', dir: path.join(work, 'billing-again'), port: 3060, registry: REGISTRY.registry },
    root,
    REGISTRY.check,
  );
  expect(second).toMatchObject({ ok: true, changed: [] });
  expect(overlay()).toEqual(once);
  expect(once.clients).toEqual([
    { clientId: 'gatehouse-shell', redirectUris: ['http://localhost:3060/*'], webOrigins: ['http://localhost:3060'] },
  ]);
});

test('a second remote is added next to the first, and what a person wrote in the overlay stays', async () => {
  const mine = { clientId: 'gatehouse-shell', redirectUris: ['http://localhost:5173/*'], webOrigins: ['http://localhost:5173'] };
  fs.writeFileSync(path.join(root, REALM_OVERLAY), JSON.stringify({ realm: 'gatehouse', clients: [mine] }));
  expect(
    await newOutsideRemote(
      { name: 'billing', dir: path.join(work, 'billing'), port: 3060, registry: REGISTRY.registry },
      root,
      REGISTRY.check,
    ),
  ).toMatchObject({ ok: true });
  expect(await inside('orders', '3061')).toMatchObject({ ok: true });
  expect(overlay().clients).toEqual([
    {
      clientId: 'gatehouse-shell',
      redirectUris: ['http://localhost:5173/*', 'http://localhost:3060/*', 'http://localhost:3061/*'],
      webOrigins: ['http://localhost:5173', 'http://localhost:3060', 'http://localhost:3061'],
    },
  ]);
});

test('a broken overlay is reported with what to do, and nothing is written', async () => {
  fs.writeFileSync(path.join(root, REALM_OVERLAY), '{ "realm": ');
  const before = snapshotFiles(root);
  const inRepo = await inside('billing', '3050');
  const outside = await newOutsideRemote(
    { name: 'billing', dir: path.join(work, 'billing'), port: 3060, registry: REGISTRY.registry },
    root,
    REGISTRY.check,
  );
  for (const result of [inRepo, outside]) {
    expect(result).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^deploy\/keycloak\/gatehouse-realm\.local\.json is not valid JSON .*fix it or delete it/)],
    });
  }
  expect(snapshotFiles(root)).toEqual(before);
  expect(fs.existsSync(path.join(work, 'billing'))).toBe(false);
});
