import { useEffect, useState } from 'react';
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
    const update = () => {
      session.getToken().then(
        (next) => active && setToken(next),
        () => active && setToken(null),
      );
    };
    update();
    // wake up once the token is under minValidity (keycloak-js counts whole seconds, hence the extra
    // second); a successful refresh changes tokenExpiresAt and re-runs this effect
    const refreshAt = tokenExpiresAt === null ? null : tokenExpiresAt - session.config.minValidity * 1000 + 1000;
    const timer = refreshAt === null ? null : setTimeout(update, Math.max(0, refreshAt - Date.now()));
    return () => {
      active = false;
      if (timer !== null) clearTimeout(timer);
    };
  }, [session, status, tokenExpiresAt]);

  return status === 'authenticated' ? token : null;
}
