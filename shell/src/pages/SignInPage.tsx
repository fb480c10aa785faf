import { useAuth, useSignInOnce } from '@gatehouse/auth-lib';

/**
 * A protected route opened while signed out. A visitor who simply arrived is sent to sign in at once
 * and comes back to `redirectTo`; one whose session just ended is told so and signs in on request.
 */
export function SignInPage({ title, redirectTo, automatic }: { title: string; redirectTo: string; automatic: boolean }) {
  const { session } = useAuth();
  const failed = useSignInOnce(automatic, redirectTo) !== null;
  return (
    <>
      <h1>Sign in</h1>
      <p>{automatic && !failed ? `Taking you to sign in for ${title}…` : `Sign in to open ${title}.`}</p>
      {(!automatic || failed) && (
        <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo })}>
          Sign in
        </button>
      )}
    </>
  );
}
