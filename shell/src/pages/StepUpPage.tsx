import { useAuth } from '@gatehouse/auth-lib';
import { Link } from 'react-router-dom';
import { Details } from '../layout/Details';

/**
 * Shown instead of a remote that needs a stronger sign-in than the session has (its `acr` in the
 * registry); the remote's code is never requested. The visitor chooses to continue: the provider then
 * asks for the extra step of that level and returns to this page's address. That address is read from the
 * browser when the visitor continues, not from the router: right after a sign-in the router's location still
 * holds the login callback's `code` and `state`, which keycloak-js has already removed from the address bar.
 */
export function StepUpPage({ title, acr, held }: { title: string; acr: string; held: string | null }) {
  const { session } = useAuth();
  return (
    <>
      <h1>Confirm it is you</h1>
      <p>{title} asks you to confirm it is you before it opens. Choose Continue to confirm; you will come back here afterwards.</p>
      <button type="button" className="gh-button" onClick={() => void session.login({ acr })}>
        Continue
      </button>
      <p className="gh-muted">
        Or <Link to="/">go to Home</Link>.
      </p>
      <Details code="step-up">
        <p>
          {title} needs acr level “{acr}”; this session has level “{held ?? 'none'}”.
        </p>
      </Details>
    </>
  );
}
