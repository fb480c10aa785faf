import { SignedInUser, useAuth, useSignInOnce } from '@gatehouse/auth-lib';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The minimal page around a remote that runs on its own: a header with the signed-in user and
 * sign-out, and sign-in before the remote renders (a remote team develops against the real provider).
 */
export function StandaloneFrame({ title, children }: { title: string; children: ReactNode }) {
  const snapshot = useAuth();
  const { session } = snapshot;
  const location = useLocation();
  const redirectTo = location.pathname + location.search + location.hash;
  const signInNow = snapshot.status === 'anonymous' && snapshot.signOutReason === null;
  useSignInOnce(signInNow, redirectTo);

  let body: ReactNode;
  if (snapshot.status === 'authenticated') body = children;
  else if (snapshot.status === 'loading')
    body = (
      <p className="gh-muted" role="status">
        Checking your sign-in…
      </p>
    );
  else if (snapshot.status === 'error') {
    body = (
      <section className="gh-card gh-error" role="alert">
        <h1>Sign-in unavailable</h1>
        <p>
          {snapshot.error?.code === 'origin-not-allowed'
            ? "Sign-in is not set up for this app's address yet (the Details say what to add)."
            : 'The sign-in service is not answering right now. Try again in a moment with Retry.'}
        </p>
        <button type="button" className="gh-button" onClick={() => void session.retry()}>
          Retry
        </button>
        {snapshot.error ? (
          <details className="gh-details">
            <summary>Details</summary>
            <p>
              Code: <code>{snapshot.error.code}</code>
            </p>
            <p>{snapshot.error.message}</p>
          </details>
        ) : null}
      </section>
    );
  } else {
    body = (
      <section className="gh-card">
        <p>{signInNow ? 'Taking you to sign in…' : 'You have been signed out.'}</p>
        <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo })}>
          Sign in
        </button>
      </section>
    );
  }

  return (
    <>
      <header className="gh-header">
        <span className="gh-brand">{title}</span>
        <span className="gh-nav gh-muted">standalone</span>
        <div className="gh-user">
          <SignedInUser />
        </div>
      </header>
      <main className="gh-main">{body}</main>
    </>
  );
}
