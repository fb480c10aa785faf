import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { jwt, shellClaims } from '../test-support/fakeTokens';
import { flush, sessionWithFake } from '../test-support/sessions';
import { createTestSession } from '../testing';
import type { Session } from '../types';
import { AuthProvider } from './AuthProvider';
import { useToken } from './useToken';

const wrapperFor = (session: Session) =>
  function Wrapper({ children }: { children?: ReactNode }) {
    return <AuthProvider session={session}>{children}</AuthProvider>;
  };

test('is the current token when signed in and null when signed out', async () => {
  const session = createTestSession({ token: 'abc' });
  const { result } = renderHook(() => useToken(), { wrapper: wrapperFor(session) });
  await waitFor(() => expect(result.current).toBe('abc'));

  act(() => session.refreshToken('def'));
  await waitFor(() => expect(result.current).toBe('def'));

  act(() => session.signOut());
  expect(result.current).toBeNull();
});

test('keeps the token fresh: refreshes when it gets under minValidity', async () => {
  jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') });
  try {
    const { session, kc } = sessionWithFake();
    await act(() => session.ready());
    const first = kc().token;
    const { result } = renderHook(() => useToken(), { wrapper: wrapperFor(session) });
    await act(flush);
    expect(result.current).toBe(first);

    await act(() => jest.advanceTimersByTimeAsync(56_000)); // token has 4 s left: refresh
    await act(flush);

    expect(kc().networkRefreshes).toBe(1);
    expect(result.current).toBe(kc().token);
    expect(result.current).not.toBe(first);
  } finally {
    jest.useRealTimers();
  }
});

test("in an API's view, it is the API's token, renewed when that token gets under minValidity", async () => {
  jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') });
  try {
    let issued = 0;
    const fetch = jest.fn(async () => {
      issued += 1;
      const now = Math.floor(Date.now() / 1000);
      const claims = shellClaims({ sub: 'id-alice', sid: 'sid-1', aud: 'profile-api', exp: now + 30 });
      return {
        ok: true,
        status: 200,
        json: async () => ({ access_token: jwt(claims, `sig-api-${issued}`) }),
      } as Response;
    }) as unknown as typeof globalThis.fetch;
    const { session, kc } = sessionWithFake((k) => (k.tokenLifespanSeconds = 300), { fetch });
    await act(() => session.ready());
    const view = session.forApi({ url: 'http://localhost:3010/profile', audience: 'profile-api', scope: 'profile-api' });
    const { result } = renderHook(() => useToken(), { wrapper: wrapperFor(view) });
    await act(flush);
    expect(result.current).toMatch(/\.sig-api-1$/);

    await act(() => jest.advanceTimersByTimeAsync(26_000)); // the API's token has 4 s left; the page's 274 s
    await act(flush);

    expect(result.current).toMatch(/\.sig-api-2$/);
    expect(kc().networkRefreshes).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});
