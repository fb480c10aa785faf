import { useAuth } from '@gatehouse/auth-lib';
import type { SignOutReason } from '@gatehouse/auth-lib';
import { Details } from './Details';

/** What the visitor reads, in plain words; `detail` (for whoever helps them) sits behind "Details". */
const REASONS: Record<SignOutReason, { text: string; detail?: string } | null> = {
  user: null,
  'session-ended': {
    text: 'Your session ended (you signed out elsewhere, or it was ended for you), so you have been signed out here. Sign in again to continue.',
  },
  'refresh-refused': { text: 'Your session is no longer valid, so you have been signed out. Sign in again to continue.' },
  'other-tab': { text: 'You signed out in another tab. Sign in again to continue.' },
  idle: { text: 'You were signed out after a period without activity. Sign in again to continue.' },
  'session-expired': {
    text: 'Your session ended because it reached its time limit, so you have been signed out. Sign in again to continue.',
  },
  'session-check-refused': {
    text: 'You have been signed out because the sign-in service does not accept this site. Please tell the site’s administrators.',
    detail: "The identity provider refused the login-status frame's check: this site's origin must be one of the client's Web origins.",
  },
};

/** Tells a visitor who was signed out while the page was open why, instead of silently changing the page. */
export function SessionNotice() {
  const snapshot = useAuth();
  const reason = snapshot.status === 'anonymous' ? snapshot.signOutReason : null;
  const notice = reason ? REASONS[reason] : null;
  if (!reason || !notice) return null;
  return (
    <div className="gh-card gh-notice" role="status" data-testid="session-notice">
      <p>{notice.text}</p>
      {notice.detail ? (
        <Details code={reason}>
          <p>{notice.detail}</p>
        </Details>
      ) : null}
    </div>
  );
}
