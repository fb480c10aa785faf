import { useSessionExpiry } from '@gatehouse/auth-lib';
import { useState } from 'react';

/**
 * A countdown from `expiryWarningSeconds` before the session ends (the same deadline in every tab), with
 * "Stay signed in": a refresh, which extends the provider's idle lifespan and moves the deadline everywhere.
 */
export function SessionExpiryBanner() {
  const { warning, secondsLeft, extend } = useSessionExpiry();
  const [failed, setFailed] = useState(false);
  if (!warning || secondsLeft === null) return null;
  const minutes = Math.floor(secondsLeft / 60);
  const left = minutes > 0 ? `${minutes}:${String(secondsLeft % 60).padStart(2, '0')}` : `${secondsLeft} s`;
  return (
    <div className="gh-card gh-notice" role="alert" data-testid="session-expiry">
      <p>
        Your session ends in <strong data-testid="session-expiry-left">{left}</strong>. Unsaved work may be lost.
      </p>
      <button
        type="button"
        onClick={() =>
          extend().then(
            () => setFailed(false),
            () => setFailed(true),
          )
        }
      >
        Stay signed in
      </button>
      {failed ? <p>The identity provider could not be reached; try again in a moment.</p> : null}
    </div>
  );
}
