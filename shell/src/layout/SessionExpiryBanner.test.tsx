import { AuthProvider } from '@gatehouse/auth-lib';
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ANNOUNCEMENTS, SessionExpiryBanner } from './SessionExpiryBanner';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

function renderBanner(leadSeconds: number, endsInMs: number) {
  const session = createTestSession({ config: { expiryWarningSeconds: leadSeconds } });
  act(() => session.setState({ expiresAt: Date.now() + endsInMs }));
  render(
    <AuthProvider session={session}>
      <button type="button">Something the visitor was using</button>
      <SessionExpiryBanner />
    </AuthProvider>,
  );
  return session;
}

test('counts down from the lead time; Stay signed in extends the session', () => {
  const session = renderBanner(90, 120_000);
  expect(screen.queryByTestId('session-expiry')).toBeNull();

  act(() => void jest.advanceTimersByTime(30_000));
  expect(screen.getByTestId('session-expiry-left').textContent).toBe('1:30');
  act(() => void jest.advanceTimersByTime(45_000));
  expect(screen.getByTestId('session-expiry-left').textContent).toBe('45 s');

  fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
  expect(session.calls.extend).toBe(1);
});

test('assistive technology hears the warning when it appears and once more at 10 s, never the ticking countdown', () => {
  renderBanner(30, 40_000);
  const region = screen.getByTestId('session-expiry-announcement');
  expect(region.getAttribute('aria-live')).toBe('assertive');
  const heard: { second: number; text: string }[] = [];
  for (let second = 1; second <= 40; second += 1) {
    act(() => void jest.advanceTimersByTime(1_000));
    const text = region.textContent ?? '';
    if (text !== (heard.at(-1)?.text ?? '')) heard.push({ second, text });
  }
  // the warning starts 30 s before the end (at second 10), the second announcement comes with 10 s left
  expect(heard).toEqual([
    { second: 10, text: ANNOUNCEMENTS.start },
    { second: 30, text: ANNOUNCEMENTS.final },
  ]);
  // the countdown itself is no live region, nor inside one
  expect(screen.getByTestId('session-expiry-left').closest('[role="alert"], [role="status"], [aria-live]')).toBeNull();
});

test('Stay signed in is styled like every button and puts focus back where it was when the warning appeared', async () => {
  const session = renderBanner(60, 120_000);
  const before = screen.getByRole('button', { name: 'Something the visitor was using' });
  before.focus();
  act(() => void jest.advanceTimersByTime(61_000));
  const stay = screen.getByRole('button', { name: 'Stay signed in' });
  expect(stay.className).toBe('gh-button');
  stay.focus();

  await act(async () => {
    fireEvent.click(stay);
    session.setState({ expiresAt: Date.now() + 1_800_000 });
    await Promise.resolve();
  });

  expect(screen.queryByTestId('session-expiry')).toBeNull();
  expect(document.activeElement).toBe(before);
});
