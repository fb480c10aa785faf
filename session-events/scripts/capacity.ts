// A bounded capacity measurement on loopback (deploy/keycloak/README.md's table): one in-memory instance, N idle
// subscribed streams (each its own token and proof), the server's heap and RSS before and after, then logout tokens
// posted for S seconds with every stream open. Usage: node --import tsx scripts/capacity.ts [streams=2000] [seconds=5]
import { Agent, setGlobalDispatcher } from 'undici';

import { startSessionEvents } from '../src/index.js';
import { accessToken, dpopKey, logoutToken, postLogout, startRealm, subscribe } from '../test/support/realm.js';

const streams = Number(process.argv[2] ?? 2000);
const seconds = Number(process.argv[3] ?? 5);
setGlobalDispatcher(new Agent({ connections: streams + 50, bodyTimeout: 0, headersTimeout: 0 }));
const realm = await startRealm();
const service = await startSessionEvents({ port: 0, issuer: realm.issuer, quiet: true });
const key = await dpopKey();
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
global.gc?.();
const before = process.memoryUsage();
const controller = new AbortController();
const subs = [];
for (let i = 0; i < streams; i++) {
  const s = await subscribe(service, await accessToken(realm, { sid: `cap-${i}`, key }), key, { signal: controller.signal });
  subs.push(s);
}
await Promise.all(subs.map((s) => s.next('ready', 30_000)));
global.gc?.();
const held = process.memoryUsage();
console.log(`streams open: ${service.streams}`);
console.log(
  `memory (client and server in one process): heap ${mb(before.heapUsed)} → ${mb(held.heapUsed)} MiB, rss ${mb(before.rss)} → ${mb(held.rss)} MiB; per stream (both ends) ${((held.rss - before.rss) / streams / 1024).toFixed(1)} KiB rss, ${((held.heapUsed - before.heapUsed) / streams / 1024).toFixed(1)} KiB heap`,
);
let posted = 0;
const until = Date.now() + seconds * 1000;
while (Date.now() < until) {
  const r = await postLogout(service.url, await logoutToken(realm, { sid: `cap-${posted % streams}` }));
  if (r.status !== 200) throw new Error(`logout ${r.status}`);
  posted++;
}
console.log(`logout tokens taken and delivered, one at a time: ${(posted / seconds).toFixed(0)} /s (${posted} in ${seconds} s)`);
controller.abort();
await service.close();
await realm.close();
process.exit(0);
