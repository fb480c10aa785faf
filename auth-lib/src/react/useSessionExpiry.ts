import { useEffect, useState } from 'react';
import { useSessionSnapshot } from './useSession';

/** What `useSessionExpiry()` returns. */
export interface SessionExpiryState {
  /** epoch milliseconds at which the session ends unless extended; null when signed out or unknown */
  readonly expiresAt: number | null;
  /** whole seconds left (updated every second while warning), null when `expiresAt` is */
  readonly secondsLeft: number | null;
  /** within the session's `expiryWarningSeconds` of the end: time to show a warning */
  readonly warning: boolean;
  /** "Stay signed in": a refresh that extends the provider's idle lifespan, in every tab */
  readonly extend: () => Promise<void>;
}

/**
 * When the session ends, and whether to warn now. The deadline is the same in every tab of the origin.
 *
 * @example
 * function ExpiryBanner() {
 *   const { warning, secondsLeft, extend } = useSessionExpiry();
 *   if (!warning) return null;
 *   return <p role="alert">Signing out in {secondsLeft} s <button onClick={() => void extend()}>Stay signed in</button></p>;
 * }
 */
export function useSessionExpiry(): SessionExpiryState {
  const [session, snapshot] = useSessionSnapshot('useSessionExpiry()');
  const { expiresAt } = snapshot;
  const leadMs = session.config.expiryWarningSeconds * 1000;
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (expiresAt === null) return undefined;
    setNow(Date.now());
    // tick once a second only inside the warning window; before it, wake up once when it starts
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      const untilWarning = expiresAt - leadMs - current;
      timer = setTimeout(tick, untilWarning > 1000 ? untilWarning : 1000);
    };
    timer = setTimeout(tick, Math.max(0, Math.min(expiresAt - leadMs - Date.now(), 2 ** 31 - 1)));
    return () => clearTimeout(timer);
  }, [expiresAt, leadMs]);

  const left = expiresAt === null ? null : Math.max(0, expiresAt - now);
  return {
    expiresAt,
    secondsLeft: left === null ? null : Math.ceil(left / 1000),
    warning: left !== null && left <= leadMs,
    extend: () => session.extend(),
  };
}
