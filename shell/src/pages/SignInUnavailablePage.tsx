import { useAuth } from '@gatehouse/auth-lib';
import { useEffect } from 'react';
import { Details } from '../layout/Details';

/**
 * A protected route opened while the identity provider does not answer: plain words and Retry for the
 * visitor; the session error's code and message (written for developers) behind "Details" and in the console.
 */
export function SignInUnavailablePage() {
  const { session, error } = useAuth();
  useEffect(() => {
    if (error) console.error(`Gatehouse: sign-in unavailable (${error.code}): ${error.message}`);
  }, [error]);
  return (
    <section className="gh-card gh-error" role="alert">
      <h1>Sign-in unavailable</h1>
      <p>
        {error?.code === 'origin-not-allowed'
          ? "Sign-in is not set up for this site's address yet, so this page cannot open. Please tell the site's administrators."
          : 'The sign-in service is not answering right now, so this page cannot open. Try again in a moment with Retry.'}
      </p>
      <button type="button" className="gh-button" onClick={() => void session.retry()}>
        Retry
      </button>
      {error ? (
        <Details code={error.code}>
          <p>{error.message}</p>
        </Details>
      ) : null}
    </section>
  );
}
