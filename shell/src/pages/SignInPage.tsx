import { useEffect } from 'react';
import { useAuth } from '@gatehouse/auth-lib';

// keycloak-js' login() navigates away; StrictMode's second effect run must not start a second sign-in.
let signInStarted = false;

/**
 * A protected route opened while signed out. A visitor who simply arrived is sent to sign in at once
 * and comes back to `redirectTo`; one whose session just ended is told so and signs in on request.
 */
export function SignInPage({ title, redirectTo, automatic }: { title: string; redirectTo: string; automatic: boolean }) {
  const { session } = useAuth();
  useEffect(() => {
    if (!automatic || signInStarted) return;
    signInStarted = true;
    void session.login({ redirectTo });
  }, [automatic, redirectTo, session]);
  return (
    <>
      <h1>Sign in</h1>
      <p>{automatic ? `Taking you to sign in for ${title}…` : `Sign in to open ${title}.`}</p>
      {!automatic && (
        <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo })}>
          Sign in
        </button>
      )}
    </>
  );
}
