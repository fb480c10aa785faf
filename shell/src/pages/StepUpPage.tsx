import { useAuth } from '@gatehouse/auth-lib';
import { Link } from 'react-router-dom';

/**
 * Shown instead of a remote that needs a stronger sign-in than the session has (its `acr` in the
 * registry); the remote's code is never requested. The visitor chooses to continue: the provider then
 * asks for the extra step of that level and returns to `redirectTo`.
 */
export function StepUpPage({ title, acr, held, redirectTo }: { title: string; acr: string; held: string | null; redirectTo: string }) {
  const { session } = useAuth();
  return (
    <>
      <h1>Confirm it is you</h1>
      <p>
        {title} needs a stronger sign-in (level “{acr}”) than your session has (level “{held ?? 'none'}”). Continue to
        confirm it is you; you come back here afterwards.
      </p>
      <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo, acr })}>
        Continue
      </button>
      <p className="gh-muted">
        Or <Link to="/">go to Home</Link>.
      </p>
    </>
  );
}
