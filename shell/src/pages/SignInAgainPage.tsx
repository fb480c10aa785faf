import { useAuth } from '@gatehouse/auth-lib';

/**
 * The visitor's sign-in expired while the identity provider could not be reached to renew it. Signing
 * in again (once the provider is back) returns to `redirectTo`.
 */
export function SignInAgainPage({ title, redirectTo }: { title: string; redirectTo: string }) {
  const { session } = useAuth();
  return (
    <section className="gh-card gh-notice" role="alert">
      <h1>Sign in again</h1>
      <p>
        Your sign-in has expired and the sign-in service cannot be reached right now to renew it. Sign in again in a moment to open {title};
        you will come back to this page.
      </p>
      <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo })}>
        Sign in
      </button>
    </section>
  );
}
