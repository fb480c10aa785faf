import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { auth } from 'baseline-auth';
import { keycloak } from './keycloak';

const Profile = lazy(() => import('remote/Profile'));

function RequireSignIn({ children }: { children: ReactElement }) {
  useEffect(() => {
    if (!keycloak.authenticated) void keycloak.login();
  }, []);
  return keycloak.authenticated ? children : <p>Signing in…</p>;
}

function App() {
  return (
    <BrowserRouter>
      <nav>
        <Link to="/">Home</Link> <Link to="/profile">Profile</Link> {auth.username ?? 'signed out'}
      </nav>
      <Routes>
        <Route path="/" element={<h1 elementtiming="home-heading">Home</h1>} />
        <Route
          path="/profile"
          element={
            <RequireSignIn>
              <Suspense fallback={<p>Loading…</p>}>
                <Profile />
              </Suspense>
            </RequireSignIn>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}

// `scope`: the remote's API (demo-api/) takes a token for its audience alone, so the token is asked for with its scope
keycloak
  .init({
    onLoad: 'check-sso',
    silentCheckSsoRedirectUri: `${location.origin}/silent-check-sso.html`,
    pkceMethod: 'S256',
    scope: 'profile-api',
  })
  .then((authenticated) => {
    auth.authenticated = authenticated;
    auth.username = keycloak.tokenParsed?.['preferred_username'] ?? null;
    auth.token = keycloak.token ?? null;
    keycloak.onAuthRefreshSuccess = () => {
      auth.token = keycloak.token ?? null;
    };
    createRoot(document.getElementById('root')!).render(<App />);
  });
