import { useAuth } from '@gatehouse/auth-lib';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { ApiCard } from '@gatehouse/remote-kit/ApiCard';

/** The admin remote: the current session as the identity provider issued it, and a sign-out. */
export default function AdminApp() {
  // this remote's own query cache (remotes share none: each team its own), kept while the remote is mounted
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route index element={<SessionPage />} />
        <Route
          path="*"
          element={
            <p>
              Nothing here. <Link to=".">Back to Admin</Link>.
            </p>
          }
        />
      </Routes>
    </QueryClientProvider>
  );
}

function time(epochMs: number | null): string {
  return epochMs === null ? '—' : new Date(epochMs).toLocaleString();
}

function SessionPage() {
  const snapshot = useAuth();
  const { session } = snapshot;
  return (
    <>
      <h1>Admin</h1>
      <section className="gh-card">
        <h2>Current session</h2>
        <dl className="gh-facts">
          <dt>User</dt>
          <dd>{snapshot.user ? `${snapshot.user.name} (${snapshot.user.username})` : '—'}</dd>
          <dt>Signed in at</dt>
          <dd data-testid="signed-in-at">{time(snapshot.signedInAt)}</dd>
          <dt>Session id</dt>
          <dd data-testid="session-id">
            <code>{snapshot.sessionId ?? '—'}</code>
          </dd>
          <dt>Level of authentication</dt>
          <dd data-testid="acr">{snapshot.acr ?? '—'}</dd>
          <dt>Access token expires at</dt>
          <dd data-testid="token-expires-at">{time(snapshot.tokenExpiresAt)}</dd>
        </dl>
        <button type="button" className="gh-button" onClick={() => void session.logout({ redirectTo: '/' })}>
          Sign out of this session
        </button>
      </section>
      <ApiCard />
    </>
  );
}
