import { AuthError, useAuth } from '@gatehouse/auth-lib';
import { useEffect, useState } from 'react';

/** `current`: valid, or nobody signed in · `renewing`: due, a refresh is under way · `unrenewable`: due, provider unreachable */
export type TokenRenewal = 'current' | 'renewing' | 'unrenewable';

/**
 * While the identity provider cannot be reached, the renewal is tried again after these waits (then every last
 * one): soon after a blip, then every 15 s while an outage lasts, so a page left open does not hammer a provider
 * that is coming back up, and opens within 15 s of it answering again.
 */
export const RENEWAL_RETRY_MS: readonly number[] = [2000, 4000, 8000, 15000];

/** Whether a token expiring at `expiresAt` (epoch ms) has under `minValidity` seconds left: auth-lib's getToken() renews it. */
function isDue(expiresAt: number | null, minValidity: number): boolean {
  return expiresAt !== null && expiresAt - minValidity * 1000 <= Date.now();
}

/**
 * Where the visitor's access token stands for the page they are opening: `current` (valid, or nobody
 * signed in), `renewing` (it is due: a refresh is under way) or `unrenewable` (it is due and the identity
 * provider cannot be reached — auth-lib keeps such a session so it can recover later).
 *
 * Due means what auth-lib's `getToken()` means by it: under the session's `minValidity` seconds left, not only
 * expired. A page opened on a token with a second left while the provider is down would otherwise show the remote,
 * whose first `getToken()` a moment later fails with the token gone (the route and auth-lib disagreeing by the
 * time it took to load the remote): such a page waits for the provider like one whose token has run out. A refresh
 * that fails while the token is still valid leaves it in place (getToken() resolves with it), so the route also
 * looks at the snapshot afterwards: still due means the provider did not renew it.
 *
 * Asked on every navigation (`navigation` changes), never on a timer: renewing a token nobody uses
 * would keep the provider's session from ever reaching its idle timeout. The one exception is a page that
 * found the provider unreachable: it tries again (RENEWAL_RETRY_MS) until the provider renews the token (the
 * page opens, no new sign-in) or refuses it (the session has ended: the visitor is signed out and told why).
 *
 * @example
 * const renewal = useTokenRenewal(location.pathname + location.search);
 */
export function useTokenRenewal(navigation: string): TokenRenewal {
  const { session, status, tokenExpiresAt } = useAuth();
  const due = status === 'authenticated' && isDue(tokenExpiresAt, session.config.minValidity);
  const key = `${navigation} ${tokenExpiresAt}`;
  const [outcome, setOutcome] = useState<{ key: string; renewal: TokenRenewal; attempt: number } | null>(null);
  const [retry, setRetry] = useState({ key, attempt: 0 });
  const attempt = retry.key === key ? retry.attempt : 0;
  useEffect(() => {
    if (!due) return undefined;
    let current = true;
    // A refresh the provider refuses ends the session instead, which the route shows itself.
    session.getToken().then(
      // resolved with the token it had (still due): the provider did not answer, the token is about to run out
      () =>
        current &&
        setOutcome({
          key,
          renewal: isDue(session.getSnapshot().tokenExpiresAt, session.config.minValidity) ? 'unrenewable' : 'current',
          attempt,
        }),
      (error: unknown) =>
        current &&
        setOutcome({
          key,
          renewal: error instanceof AuthError && error.code === 'idp-unreachable' ? 'unrenewable' : 'current',
          attempt,
        }),
    );
    return () => {
      current = false;
    };
  }, [session, due, key, attempt]);
  const unrenewable = due && outcome?.key === key && outcome.renewal === 'unrenewable' ? outcome.attempt : null;
  useEffect(() => {
    if (unrenewable === null) return undefined;
    const wait = RENEWAL_RETRY_MS[Math.min(unrenewable, RENEWAL_RETRY_MS.length - 1)];
    const timer = setTimeout(() => setRetry({ key, attempt: unrenewable + 1 }), wait);
    return () => clearTimeout(timer);
  }, [unrenewable, key]);
  if (!due) return 'current';
  return outcome?.key === key ? outcome.renewal : 'renewing';
}
