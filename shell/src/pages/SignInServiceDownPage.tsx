import { useAuth } from '@gatehouse/auth-lib';

/**
 * The visitor's access token expired while the identity provider cannot be reached to renew it. Their session
 * at the provider is still there (Keycloak keeps it through restarts), so they need not sign in again: the
 * route tries the renewal again by itself (useTokenRenewal) and opens the page once the provider answers. Should
 * the provider no longer know the session, the refusal signs them out and the sign-in page says why. Signing in
 * again stays offered: keycloak-js cannot renew at all when the provider was already gone at its login-status
 * frame's first check (the frame never answers again), and then only a new sign-in (no form) returns here.
 */
export function SignInServiceDownPage({ title, redirectTo }: { title: string; redirectTo: string }) {
  const { session } = useAuth();
  return (
    <section className="gh-card gh-notice" role="alert">
      <h1>Waiting for the sign-in service</h1>
      <p>
        The sign-in service cannot be reached right now, so your sign-in cannot be renewed. {title} opens by itself as soon as the service
        is back; you stay signed in. If it has not opened a minute after that, sign in again: you will come back to this page.
      </p>
      <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo })}>
        Sign in again
      </button>
    </section>
  );
}
