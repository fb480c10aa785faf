import { differences } from './compare.js';
import { PROBES } from './probes.js';
import { SECURITY_PROBES } from './securityProbes.js';
import { createRealm, keycloakFromEnvironment, startDevIdpProvider } from './providers.js';
import { twoUserRealm } from '../test/support/fixtures.js';

const kc = keycloakFromEnvironment();
const dev = await startDevIdpProvider();
const only = process.argv[2];
for (const [name, probe] of Object.entries({ ...PROBES, ...SECURITY_PROBES })) {
  if (only && !name.includes(only)) continue;
  const realm = `diff-${name.replace(/[^a-z]+/gi, '-')}`.toLowerCase();
  await createRealm(kc, twoUserRealm(realm));
  await createRealm(dev, twoUserRealm(realm));
  const [a, b] = [await probe({ provider: kc, realm }), await probe({ provider: dev, realm })];
  console.log(`## ${name}`);
  for (const d of differences(a, b))
    console.log(`  ${d.field}\n    kc : ${JSON.stringify(d.keycloak)}\n    dev: ${JSON.stringify(d.devIdp)}`);
}
await dev.close();
