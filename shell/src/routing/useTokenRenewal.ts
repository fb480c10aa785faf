import { AuthError, useAuth } from '@gatehouse/auth-lib';
import { useEffect, useState } from 'react';

/** `current`: valid, or nobody signed in · `renewing`: expired, a refresh is under way · `unrenewable`: expired, provider unreachable */
export type TokenRenewal = 'current' | 'renewing' | 'unrenewable';

/**
 * Where the visitor's access token stands for the page they are opening: `current` (valid, or nobody
 * signed in), `renewing` (it has expired; a refresh is under way) or `unrenewable` (it has expired and
 * the identity provider cannot be reached — auth-lib keeps such a session so it can recover later).
 *
 * Asked on every navigation (`navigation` changes), never on a timer: renewing a token nobody uses
 * would keep the provider's session from ever reaching its idle timeout.
 *
 * @example
 * const renewal = useTokenRenewal(location.pathname + location.search);
 */
export function useTokenRenewal(navigation: string): TokenRenewal {
  const { session, status, tokenExpiresAt } = useAuth();
  const expired = status === 'authenticated' && tokenExpiresAt !== null && tokenExpiresAt <= Date.now();
  const key = `${navigation} ${tokenExpiresAt}`;
  const [outcome, setOutcome] = useState<{ key: string; renewal: TokenRenewal } | null>(null);
  useEffect(() => {
    if (!expired) return undefined;
    let current = true;
    // A refresh the provider refuses ends the session instead, which the route shows itself.
    session.getToken().then(
      () => current && setOutcome({ key, renewal: 'current' }),
      (error: unknown) =>
        current && setOutcome({ key, renewal: error instanceof AuthError && error.code === 'idp-unreachable' ? 'unrenewable' : 'current' }),
    );
    return () => {
      current = false;
    };
  }, [session, expired, key]);
  if (!expired) return 'current';
  return outcome?.key === key ? outcome.renewal : 'renewing';
}
