import { useSessionExpiry } from '@gatehouse/auth-lib';
import { useEffect, useRef, useState } from 'react';

/** From this many seconds left the warning is announced a second time. */
export const FINAL_WARNING_SECONDS = 10;

/** What assistive technology hears: one sentence when the warning appears, one more near the end, never the ticking. */
export const ANNOUNCEMENTS = {
  start: 'Your session on this site is about to end. Choose Stay signed in to keep working.',
  final: 'Your session on this site ends in a few seconds. Choose Stay signed in to keep working.',
} as const;

/**
 * A countdown from `expiryWarningSeconds` before the session ends (the same deadline in every tab), with
 * "Stay signed in": a refresh, which extends the provider's idle lifespan and moves the deadline everywhere.
 * The countdown is not a live region (it would be read out every second): a separate, always present live
 * region changes its text twice, when the warning appears and at {@link FINAL_WARNING_SECONDS}. After "Stay
 * signed in" focus goes back to where it was when the warning appeared (else to the page's heading).
 */
export function SessionExpiryBanner() {
  const { warning, secondsLeft, extend } = useSessionExpiry();
  const [failed, setFailed] = useState(false);
  const focusedBefore = useRef<Element | null>(null);
  const shown = warning && secondsLeft !== null;
  useEffect(() => {
    if (shown) {
      focusedBefore.current = document.activeElement;
      return;
    }
    // Gone (extended here or in another tab): focus that was on its button would otherwise drop to <body>.
    const before = focusedBefore.current;
    focusedBefore.current = null;
    if (before && (document.activeElement === null || document.activeElement === document.body)) returnFocus(before);
  }, [shown]);

  const stay = () =>
    extend().then(
      () => setFailed(false),
      () => setFailed(true),
    );

  let announcement = '';
  if (shown) announcement = secondsLeft > FINAL_WARNING_SECONDS ? ANNOUNCEMENTS.start : ANNOUNCEMENTS.final;
  return (
    <>
      <div className="gh-visually-hidden" aria-live="assertive" aria-atomic="true" data-testid="session-expiry-announcement">
        {announcement}
      </div>
      {shown ? (
        <div className="gh-card gh-notice" data-testid="session-expiry">
          <p>
            Your session on this site ends in <strong data-testid="session-expiry-left">{formatLeft(secondsLeft)}</strong> unless you stay
            signed in. Unsaved work may be lost.
          </p>
          <button type="button" className="gh-button" onClick={() => void stay()}>
            Stay signed in
          </button>
          {failed ? <p role="alert">The sign-in service could not be reached to keep you signed in. Try again in a moment.</p> : null}
        </div>
      ) : null}
    </>
  );
}

function formatLeft(secondsLeft: number): string {
  const minutes = Math.floor(secondsLeft / 60);
  return minutes > 0 ? `${minutes}:${String(secondsLeft % 60).padStart(2, '0')}` : `${secondsLeft} s`;
}

/** Focus back on `element` if it is still on the page, else on the page's heading (never left on <body>). */
function returnFocus(element: Element): void {
  if (element instanceof HTMLElement && element !== document.body && element.isConnected) {
    element.focus();
    return;
  }
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}
