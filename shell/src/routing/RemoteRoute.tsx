import { AuthProvider, remoteView, useAuth } from '@gatehouse/auth-lib';
import { useLocation } from 'react-router-dom';
import type { RemoteConfig } from '../config/types';
import { AccessDeniedPage } from '../pages/AccessDeniedPage';
import { SignInPage } from '../pages/SignInPage';
import { SignInServiceDownPage } from '../pages/SignInServiceDownPage';
import { SignInUnavailablePage } from '../pages/SignInUnavailablePage';
import { StepUpPage } from '../pages/StepUpPage';
import { useShell } from '../ShellContext';
import { RemoteSlot } from '../slots/RemoteSlot';
import { missingRoles, stepUpNeeded } from './access';
import { useTokenRenewal } from './useTokenRenewal';

/**
 * The guard in front of a remote: sign-in first, then the roles the registry names, then its level of
 * authentication (`acr`: a weaker session is asked to step up). Only a visitor who passes all three gets
 * the slot, which is when the remote's code is first requested. A visitor whose token expired while the
 * identity provider is unreachable is told so at their next navigation, and the page opens by itself once the
 * provider renews the token (the session it keeps is still theirs: no new sign-in).
 */
export function RemoteRoute({ remote }: { remote: RemoteConfig }) {
  const { registry } = useShell();
  const snapshot = useAuth();
  const location = useLocation();
  const route = location.pathname + location.search + location.hash;
  const renewal = useTokenRenewal(route);

  switch (snapshot.status) {
    case 'loading':
      return (
        <p className="gh-muted" role="status">
          Checking your sign-in…
        </p>
      );
    case 'error':
      return <SignInUnavailablePage />;
    case 'anonymous':
      return <SignInPage title={remote.title} redirectTo={route} automatic={snapshot.signOutReason === null} />;
    case 'authenticated': {
      const missing = missingRoles(snapshot, remote);
      if (missing.length > 0) {
        return <AccessDeniedPage title={remote.title} missing={missing} username={snapshot.user?.username ?? 'unknown'} />;
      }
      const stepUpTo = stepUpNeeded(snapshot, remote);
      if (stepUpTo !== null) return <StepUpPage title={remote.title} acr={stepUpTo} held={snapshot.acr} />;
      if (renewal === 'unrenewable') return <SignInServiceDownPage title={remote.title} redirectTo={route} />;
      if (renewal === 'renewing')
        return (
          <p className="gh-muted" role="status">
            Checking your sign-in…
          </p>
        );
      // Keyed: going from one remote's route to another's must not carry over the slot's state (a failure).
      const slot = <RemoteSlot key={remote.name} remote={remote} registry={registry} navigation={location.key} />;
      // Each remote gets its own view of the session (decisions/0109): a remote that names its API, tokens for that API
      // alone (decisions/0054); one that names none, the page session; either way forApi reaches no other API.
      return <AuthProvider session={remoteView(snapshot.session, remote.api ?? null)}>{slot}</AuthProvider>;
    }
  }
}
