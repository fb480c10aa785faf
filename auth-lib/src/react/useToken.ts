import { useEffect, useState } from 'react';
import { decodeClaims } from '../session/tokens/tokenSet';
import { useSessionSnapshot } from './useSession';

/**
 * The current access token, or null when there is none (signed out, loading, or expired while the
 * provider cannot be reached). While the component is mounted the token is kept fresh: it is
 * refreshed when it gets under the session's `minValidity`. Prefer `authFetch` for API calls; this
 * is for code that needs the raw string (e.g. a WebSocket handshake).
 *
 * @example
 * function LiveFeed() {
 *   const token = useToken();
 *   useEffect(() => { if (token) return connect(`wss://feed.example.com?access_token=${token}`); }, [token]);
 *   return null;
 * }
 */
export function useToken(): string | null {
  const [session, snapshot] = useSessionSnapshot('useToken()');
  const [token, setToken] = useState<string | null>(null);
  const { status, tokenExpiresAt } = snapshot;

  useEffect(() => {
    if (status !== 'authenticated') {
      setToken(null);
      return undefined;
    }
    let active = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    // wake up once the token is under minValidity (keycloak-js counts whole seconds, hence the extra second):
    // at the page token's expiry, or at the token's own where it is another (an API's, from a view: decisions/0054)
    const wakeAt = (expiresAt: number | null) => {
      if (timer !== null) clearTimeout(timer);
      timer =
        expiresAt === null ? null : setTimeout(update, Math.max(0, expiresAt - session.config.minValidity * 1000 + 1000 - Date.now()));
    };
    const update = () => {
      session.getToken().then(
        (next) => {
          if (!active) return;
          setToken(next);
          const exp = session.api ? decodeClaims(next)?.exp : undefined;
          wakeAt(typeof exp === 'number' ? exp * 1000 : tokenExpiresAt);
        },
        () => active && setToken(null),
      );
    };
    update();
    wakeAt(tokenExpiresAt); // a successful refresh changes tokenExpiresAt and re-runs this effect
    return () => {
      active = false;
      if (timer !== null) clearTimeout(timer);
    };
  }, [session, status, tokenExpiresAt]);

  return status === 'authenticated' ? token : null;
}
