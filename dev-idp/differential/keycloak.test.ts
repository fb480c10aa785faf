import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { twoUserRealm } from '../test/support/fixtures.js';
import { BACKCHANNEL_PROBES } from './backchannelProbes.js';
import { differences } from './compare.js';
import { DOWNSCOPE_PROBES } from './downscopeProbes.js';
import { DPOP_PROBES } from './dpopProbes.js';
import { KNOWN_DIFFERENCES } from './knownDifferences.js';
import { PROBES } from './probes.js';
import { createRealm, deleteRealm, keycloakProvider, startDevIdpProvider } from './providers.js';
import type { Provider } from './providers.js';
import { SECURITY_PROBES } from './securityProbes.js';

// The dev IdP measured against a real Keycloak 26 (KEYCLOAK_URL, or one started here): the same realm, made through the admin API
// on both, and the same requests; what a client can see of the answers must match, except the differences
// listed in knownDifferences.ts with the reason they do not matter to a client (dev-idp/README.md's table).
let keycloak: Provider;
let devIdp: Provider;

before(async () => {
  [keycloak, devIdp] = await Promise.all([keycloakProvider(), startDevIdpProvider()]);
});
after(() => Promise.all([keycloak.close(), devIdp.close()]));

describe('dev-idp against Keycloak 26: what a client sees', () => {
  for (const [name, probe] of Object.entries({
    ...PROBES,
    ...SECURITY_PROBES,
    ...DOWNSCOPE_PROBES,
    ...DPOP_PROBES,
    ...BACKCHANNEL_PROBES,
  })) {
    test(name, async (t) => {
      const realm = `diff-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`.replace(/-$/, '');
      await Promise.all([createRealm(keycloak, twoUserRealm(realm)), createRealm(devIdp, twoUserRealm(realm))]);
      try {
        const found = differences(await probe({ provider: keycloak, realm }), await probe({ provider: devIdp, realm }));
        const known = KNOWN_DIFFERENCES[name] ?? {};
        for (const d of found) {
          const why = known[d.field];
          if (why) t.diagnostic(`${d.field}: Keycloak ${JSON.stringify(d.keycloak)}, dev-idp ${JSON.stringify(d.devIdp)} — ${why}`);
        }
        const stale = Object.keys(known).filter((field) => !found.some((d) => d.field === field));
        if (stale.length > 0) t.diagnostic(`listed in knownDifferences.ts but now equal: ${stale.join(', ')}`);
        const unexpected = found.filter((d) => !known[d.field]);
        assert.deepEqual(unexpected, [], 'answers that differ from Keycloak and are not listed in knownDifferences.ts');
      } finally {
        await Promise.all([deleteRealm(keycloak, realm), deleteRealm(devIdp, realm)]);
      }
    });
  }
});
