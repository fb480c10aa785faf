import { fakeTabBus } from '../test-support/fakeKeycloak';
import { flush, sessionWithFake } from '../test-support/sessions';
import { channelName } from './otherTabs';

test('sign-out in one tab signs the other tabs out at once, with reason other-tab', async () => {
  const bus = fakeTabBus();
  const tabA = sessionWithFake(undefined, { tabChannel: bus.factory });
  const tabB = sessionWithFake(undefined, { tabChannel: bus.factory });
  await Promise.all([tabA.session.ready(), tabB.session.ready()]);
  const signedOut = jest.fn();
  tabB.session.on(signedOut);

  await tabA.session.logout();

  expect(tabB.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'other-tab', user: null });
  expect(signedOut).toHaveBeenCalledWith({ type: 'signedOut', reason: 'other-tab' });
  expect(tabB.kc().token).toBeUndefined(); // tokens dropped from memory, frame checks stop
  await flush();
  expect(tabB.session.getSnapshot().signOutReason).toBe('other-tab'); // not overwritten by onAuthLogout
  expect(tabA.session.getSnapshot().signOutReason).toBe('user');
});

test('the channel is named after realm and client, and its message carries no token', async () => {
  const bus = fakeTabBus();
  const tab = sessionWithFake(undefined, { tabChannel: bus.factory });
  await tab.session.ready();
  const token = tab.kc().token ?? 'missing';

  await tab.session.logout();

  expect(bus.channels.map((c) => c.name)).toEqual([channelName('gatehouse', 'gatehouse-shell')]);
  expect(channelName('gatehouse', 'gatehouse-shell')).toBe('gatehouse-auth:gatehouse:gatehouse-shell');
  expect(JSON.stringify(bus.messages)).not.toContain(token);
  expect(JSON.stringify(bus.messages)).not.toMatch(/eyJ/);
});

test('tabs of another realm or client are not affected', async () => {
  const bus = fakeTabBus();
  const tabA = sessionWithFake(undefined, { tabChannel: bus.factory });
  const other = sessionWithFake(undefined, { tabChannel: bus.factory }, { clientId: 'another-app' });
  await Promise.all([tabA.session.ready(), other.session.ready()]);

  await tabA.session.logout();

  expect(other.session.getSnapshot().status).toBe('authenticated');
});

test('unrelated messages on the channel are ignored', async () => {
  const bus = fakeTabBus();
  const tab = sessionWithFake(undefined, { tabChannel: bus.factory });
  await tab.session.ready();
  const sender = bus.factory(channelName('gatehouse', 'gatehouse-shell'));
  sender.postMessage({ type: 'something-else' });
  sender.postMessage('gatehouse-auth:signed-out');
  expect(tab.session.getSnapshot().status).toBe('authenticated');
});
