import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
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
