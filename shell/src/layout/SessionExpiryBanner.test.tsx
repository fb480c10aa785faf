import { AuthProvider } from '@gatehouse/auth-lib';
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { SessionExpiryBanner } from './SessionExpiryBanner';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

test('counts down from the lead time; Stay signed in extends the session', () => {
  const session = createTestSession({ config: { expiryWarningSeconds: 90 } });
  act(() => session.setState({ expiresAt: Date.now() + 120_000 }));
  render(
    <AuthProvider session={session}>
      <SessionExpiryBanner />
    </AuthProvider>,
  );
  expect(screen.queryByTestId('session-expiry')).toBeNull();

  act(() => void jest.advanceTimersByTime(30_000));
  expect(screen.getByTestId('session-expiry-left').textContent).toBe('1:30');
  act(() => void jest.advanceTimersByTime(45_000));
  expect(screen.getByTestId('session-expiry-left').textContent).toBe('45 s');

  fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
  expect(session.calls.extend).toBe(1);
});
