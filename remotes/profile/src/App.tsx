import { useAuth, type Profile } from '@gatehouse/auth-lib';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { ApiCard } from '@gatehouse/remote-kit/ApiCard';
import { Countdown } from './Countdown';
import { productClientRoles, productRealmRoles } from './productRoles';

type ProfileState = { status: 'loading' } | { status: 'loaded'; profile: Profile } | { status: 'failed'; message: string };

/** The profile remote: who the signed-in user is, their roles, and how long their token lasts. */
export default function ProfileApp() {
  // this remote's own query cache (remotes share none: each team its own), kept while the remote is mounted
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route index element={<ProfilePage />} />
        <Route
          path="*"
          element={
            <p>
              Nothing here. <Link to=".">Back to your profile</Link>.
            </p>
          }
        />
      </Routes>
    </QueryClientProvider>
  );
}

function ProfilePage() {
  const snapshot = useAuth();
  const { session } = snapshot;
  const [state, setState] = useState<ProfileState>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    session.loadProfile().then(
      (profile) => current && setState({ status: 'loaded', profile }),
      (error: unknown) => {
        console.error('Profile: the account details could not be loaded', error);
        if (current) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [session]);

  const user = snapshot.user;
  const profile = state.status === 'loaded' ? state.profile : null;
  const fullName = profile ? [profile.firstName, profile.lastName].filter(Boolean).join(' ') || user?.name : user?.name;
  return (
    <>
      {/* elementtiming: when the heading is painted (Element Timing API), measured by bench/ */}
      <h1 {...{ elementtiming: 'profile-heading' }}>Profile</h1>
      <section className="gh-card">
        <dl className="gh-facts">
          <dt>Username</dt>
          <dd data-testid="username">{profile?.username ?? user?.username}</dd>
          <dt>Full name</dt>
          <dd data-testid="full-name">{fullName}</dd>
          <dt>Email</dt>
          <dd data-testid="email">
            {profile?.email ?? user?.email ?? '—'} {profile?.emailVerified ? <span className="gh-badge">verified</span> : null}
          </dd>
          <dt>Realm roles</dt>
          <dd data-testid="realm-roles">
            {productRealmRoles(snapshot.realmRoles).map((role) => (
              <span key={role} className="gh-badge">
                {role}
              </span>
            ))}
          </dd>
          <dt>Client roles</dt>
          <dd data-testid="client-roles">
            {productClientRoles(snapshot.clientRoles).map(([client, role]) => (
              <span key={`${client}/${role}`} className="gh-badge">
                {client}: {role}
              </span>
            ))}
          </dd>
          {/* Not the session's end (the shell's warning says that): the token renews by itself while the session lasts. */}
          <dt>Current access token</dt>
          <dd>
            {snapshot.tokenExpiresAt ? <Countdown at={snapshot.tokenExpiresAt} /> : '—'}
            <br />
            <span className="gh-muted">Renews by itself while you are signed in; this is not when your session ends.</span>
          </dd>
        </dl>
        {state.status === 'loading' && (
          <p className="gh-muted" role="status">
            Loading your account details…
          </p>
        )}
        {state.status === 'failed' && (
          <div className="gh-error" role="alert">
            <p>Your account details could not be loaded right now. Reload the page to try again.</p>
            <details className="gh-details">
              <summary>Details</summary>
              <p>{state.message}</p>
            </details>
          </div>
        )}
      </section>
      <ApiCard />
    </>
  );
}
