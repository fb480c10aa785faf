// Security round: the page registry (a global Symbol.for key any script can read) leads to the
// Session contract only — never to keycloak-js and the refresh and ID tokens it holds.
import { fakeKeycloakFactory } from '../test-support/fakeKeycloak';
import { CONFIG } from '../test-support/sessions';
import { createSession } from './createSession';
import { clearPageSession } from './registry';

afterEach(() => clearPageSession());

/** Every value a script can reach from `root` by reading properties (own ones, enumerable or not). */
function reachable(root: unknown): Set<unknown> {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (seen.has(value)) return;
    seen.add(value);
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value);
      else if (descriptor?.get) visit(descriptor.get.call(value));
    }
  };
  visit(root);
  return seen;
}

test('neither keycloak-js nor the refresh token is reachable from the global registry entry; the access token is, through getToken()', async () => {
  const { factory, instances } = fakeKeycloakFactory();
  const session = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  await session.ready();
  const kc = instances[0];
  if (!kc?.refreshToken || !kc.token) throw new Error('the fake keycloak-js signed in without tokens');

  const entry = (globalThis as Record<symbol, unknown>)[Symbol.for('gatehouse.auth-lib.session')];
  const values = reachable(entry);

  expect(values.has(kc)).toBe(false);
  expect(values.has(kc.refreshToken)).toBe(false);
  expect(await session.getToken()).toBe(kc.token);
});
