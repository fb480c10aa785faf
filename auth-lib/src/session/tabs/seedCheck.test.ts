import { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { flush } from '../../test-support/sessions';
import { SeedCheck } from './seedCheck';
import { readTokenSet, type TokenSet } from '../tokens/tokenSet';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

/** Tokens of a live tab: a signed-in fake's. */
function liveTabTokens(): TokenSet {
  const live = new FakeKeycloak();
  live.signIn({ sub: 'id-alice', preferred_username: 'alice' });
  return readTokenSet(live)!;
}

function setup(frameAnswer: FakeKeycloak['frameAnswer']) {
  const seed = liveTabTokens();
  const kc = new FakeKeycloak();
  kc.frameAnswer = frameAnswer;
  const host = { current: jest.fn(() => true), ended: jest.fn() };
  const check = new SeedCheck();
  check.start(kc, seed, { checkLoginIframe: false }, 10_000, host);
  return { seed, kc, host, check };
}

test('puts the seeded tokens into the instance at once; a confirmation changes nothing', async () => {
  const { seed, kc, host, check } = setup('hang');

  expect(readTokenSet(kc)).toMatchObject({ token: seed.token });
  expect(kc.refreshToken).toBeUndefined();
  expect(check.pending).not.toBeNull();

  kc.pendingInit.resolve(true);
  await check.pending;

  expect(check.pending).toBeNull();
  expect(host.ended).not.toHaveBeenCalled();
  expect(kc.token).toBe(seed.token);
});

test('init fails: ended, and the tokens are dropped', async () => {
  const { kc, host, check } = setup('error');
  await check.pending;
  expect(host.ended).toHaveBeenCalledTimes(1);
  expect(kc.token).toBeUndefined();
});

test('init that does not settle within the timeout: ended then, not before', async () => {
  const { kc, host, check } = setup('hang');
  const pending = check.pending;

  await jest.advanceTimersByTimeAsync(9_999);
  expect(host.ended).not.toHaveBeenCalled();
  expect(kc.token).toBeDefined();

  await jest.advanceTimersByTimeAsync(1);
  await pending;
  expect(host.ended).toHaveBeenCalledTimes(1);
  expect(kc.token).toBeUndefined();
  expect(check.pending).toBeNull();
});

test('a session that moved on meanwhile gets no verdict; the instance drops its tokens, also after a late init', async () => {
  const { kc, host, check } = setup('hang');
  host.current.mockReturnValue(false);
  const pending = check.pending;

  await jest.advanceTimersByTimeAsync(10_000);
  await pending;
  expect(host.ended).not.toHaveBeenCalled();
  expect(kc.token).toBeUndefined();

  kc.token = 'set again by keycloak-js'; // a real init sets the seeded tokens again once it gets that far
  kc.pendingInit.resolve(true);
  await flush();
  expect(kc.token).toBeUndefined();
});

test('forget(): a new instance takes over, nothing waits on the old check', () => {
  const { check } = setup('hang');
  check.forget();
  expect(check.pending).toBeNull();
});
