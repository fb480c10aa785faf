import { fakeDpop } from './fakeDpop';
import { resolveConfig } from '../session/config';
import { KeycloakSession, type SessionDependencies } from '../session/KeycloakSession';
import type { SessionConfig } from '../types';
import { fakeKeycloakFactory, fakeTabBus, fakeTabLocks, type FakeKeycloak, type FakeProvider } from './fakeKeycloak';
import { fakeVerifier } from './fakeVerifier';

export const CONFIG: SessionConfig = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };

/** A KeycloakSession over a FakeKeycloak, outside the page registry. */
export function sessionWithFake(
  configure: (kc: FakeKeycloak) => void = () => undefined,
  deps: SessionDependencies = {},
  config: Partial<SessionConfig> = {},
) {
  const { factory, instances } = fakeKeycloakFactory(configure);
  const session = new KeycloakSession(resolveConfig({ ...CONFIG, ...config }, 'http://localhost'), {
    keycloakFactory: factory,
    tabChannel: null,
    verifyTokens: fakeVerifier,
    dpop: fakeDpop,
    ...deps,
  });
  const kc = (): FakeKeycloak => {
    const last = instances[instances.length - 1];
    if (!last) throw new Error('no keycloak instance yet');
    return last;
  };
  return { session, factory, instances, kc };
}

/** Lets queued promise callbacks run (the fake's async steps take a few microtasks). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

/** Tabs of one browser: one channel bus, one lock manager; tab i is created (and campaigns) i-th. */
export function browser() {
  const bus = fakeTabBus();
  const locks = fakeTabLocks();
  /** the provider's session of this browser: a logout in any tab ends it for every tab's requests */
  const provider: FakeProvider = { ended: false };
  const tabs: ReturnType<typeof sessionWithFake>[] = [];
  const open = async (
    configure: (kc: FakeKeycloak) => void = () => undefined,
    deps: SessionDependencies = {},
    config: Partial<SessionConfig> = {},
  ) => {
    const withProvider = (kc: FakeKeycloak) => {
      kc.provider = provider;
      configure(kc);
    };
    const tab = sessionWithFake(withProvider, { tabChannel: bus.factory, tabLocks: locks.locks, ...deps }, config);
    tabs.push(tab);
    await jest.advanceTimersByTimeAsync(0);
    await tab.session.ready();
    await flush();
    return tab;
  };
  return { bus, locks, tabs, open, provider };
}
