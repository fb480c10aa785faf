import { act, render, screen } from '@testing-library/react';
import { createTestSession } from '../testing';
import { AuthProvider } from './AuthProvider';
import { useSessionExpiry } from './useSessionExpiry';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

function Banner() {
  const { warning, secondsLeft, extend } = useSessionExpiry();
  if (!warning) return <p>fine</p>;
  return (
    <p role="alert">
      {secondsLeft} s <button onClick={() => void extend()}>Stay signed in</button>
    </p>
  );
}

test('warns within the lead time, counts down each second, and Stay signed in extends', () => {
  const session = createTestSession();
  act(() => session.setState({ expiresAt: Date.now() + 90_000 }));
  render(
    <AuthProvider session={session}>
      <Banner />
    </AuthProvider>,
  );
  expect(screen.getByText('fine')).toBeTruthy();

  act(() => void jest.advanceTimersByTime(30_000));
  expect(screen.getByRole('alert').textContent).toContain('60 s');
  act(() => void jest.advanceTimersByTime(1_000));
  expect(screen.getByRole('alert').textContent).toContain('59 s');

  act(() => screen.getByText('Stay signed in').click());
  expect(session.calls.extend).toBe(1);
  act(() => session.setState({ expiresAt: Date.now() + 300_000 }));
  expect(screen.getByText('fine')).toBeTruthy();
});
