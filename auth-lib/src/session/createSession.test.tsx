import { StrictMode, useEffect } from 'react';
import { render } from '@testing-library/react';
import { fakeKeycloakFactory } from '../test-support/fakeKeycloak';
import { CONFIG } from '../test-support/sessions';
import { createSession, getSession, whenSession } from './createSession';
import { clearPageSession, REGISTRY_KEY } from './registry';

afterEach(() => clearPageSession());

test('creates the page session and starts keycloak-js once', async () => {
  const { factory, instances } = fakeKeycloakFactory();
  const session = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  // the page view (decisions/0109): the root session stays with createSession's caller
  expect(getSession().getSnapshot()).toBe(session.getSnapshot());
  await session.ready();
  expect(factory).toHaveBeenCalledTimes(1);
  expect(instances[0]?.initCalls).toHaveLength(1);
});

test('a second createSession with an equal config returns the same session', async () => {
  const { factory } = fakeKeycloakFactory();
  const first = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  const second = createSession({ ...CONFIG, url: 'http://localhost:8080/' }, { keycloakFactory: factory, tabChannel: null });
  expect(second).toBe(first);
  await first.ready();
  expect(factory).toHaveBeenCalledTimes(1);
});

test('a second createSession with a different config throws and names the difference', async () => {
  const { factory } = fakeKeycloakFactory();
  const first = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  expect(() => createSession({ ...CONFIG, realm: 'other' }, { keycloakFactory: factory })).toThrow(
    /already has a session \(realm "gatehouse", client "gatehouse-shell"\).*different realm/,
  );
  await first.ready();
  expect(factory).toHaveBeenCalledTimes(1);
});

test('an invalid config throws before anything starts', () => {
  const { factory } = fakeKeycloakFactory();
  expect(() => createSession({ ...CONFIG, realm: '' }, { keycloakFactory: factory })).toThrow(
    expect.objectContaining({ code: 'invalid-config' }),
  );
  expect(factory).not.toHaveBeenCalled();
});

test('React StrictMode double effects initialise keycloak-js once', async () => {
  const { factory, instances } = fakeKeycloakFactory();
  function Shell() {
    useEffect(() => {
      createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
    }, []);
    return null;
  }
  render(
    <StrictMode>
      <Shell />
    </StrictMode>,
  );
  await getSession().ready();
  expect(factory).toHaveBeenCalledTimes(1);
  expect(instances[0]?.initCalls).toHaveLength(1);
});

test('getSession without a session says how to create one', () => {
  expect(() => getSession()).toThrow(
    expect.objectContaining({
      code: 'no-session',
      message: expect.stringMatching(/create it with createSession\(\) in the shell, or wrap your app in <AuthProvider>/),
    }),
  );
});

test('whenSession resolves when the shell creates the session (a remote that started first)', async () => {
  const waiting = whenSession();
  const { factory } = fakeKeycloakFactory();
  const session = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  // the page view, as getSession() gives (decisions/0109)
  await expect(waiting).resolves.toBe(getSession());
  await expect(whenSession()).resolves.toBe(getSession());
  expect(getSession()).not.toBe(session);
});

test('two bundled copies of auth-lib on one page share the session through globalThis', async () => {
  let copyA: typeof import('./createSession') | undefined;
  let copyB: typeof import('./createSession') | undefined;
  jest.isolateModules(() => {
    copyA = jest.requireActual('./createSession');
  });
  jest.isolateModules(() => {
    copyB = jest.requireActual('./createSession');
  });
  expect(copyA).not.toBe(copyB);
  const { factory } = fakeKeycloakFactory();
  const session = copyA!.createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
  // the other copy finds the page view, never the root session copy A's caller holds (decisions/0109)
  expect(copyB!.getSession()).toBe(copyA!.getSession());
  expect(copyB!.getSession()).not.toBe(session);
  expect(copyB!.createSession(CONFIG, { keycloakFactory: factory })).toBe(copyA!.getSession());
  await session.ready();
  expect(factory).toHaveBeenCalledTimes(1);
  expect(Object.getOwnPropertySymbols(globalThis)).toContain(REGISTRY_KEY);
  expect(REGISTRY_KEY).toBe(Symbol.for('gatehouse.auth-lib.session'));
});
