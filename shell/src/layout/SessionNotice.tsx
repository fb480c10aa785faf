import { useAuth } from '@gatehouse/auth-lib';
import type { SignOutReason } from '@gatehouse/auth-lib';

const REASONS: Record<SignOutReason, string | null> = {
  user: null,
  'session-ended': 'Your session ended at the identity provider, so you have been signed out.',
  'refresh-refused': 'The identity provider no longer accepts your session, so you have been signed out.',
  'other-tab': 'You signed out in another tab.',
  idle: 'You were signed out after a period without activity.',
  'session-expired': 'Your session ended at the identity provider (it reached its time limit), so you have been signed out.',
  'session-check-refused':
    "The identity provider refused this site's session check, so you have been signed out. This is a configuration problem: " +
    "this site's address must be one of the client's Web origins. Please tell the site's administrators.",
};

/** Tells a visitor who was signed out while the page was open why, instead of silently changing the page. */
export function SessionNotice() {
  const snapshot = useAuth();
  const text = snapshot.status === 'anonymous' && snapshot.signOutReason ? REASONS[snapshot.signOutReason] : null;
  if (!text) return null;
  return (
    <p className="gh-card gh-notice" role="status" data-testid="session-notice">
      {text}
    </p>
  );
}
