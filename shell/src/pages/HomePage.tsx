import { useAuth } from '@gatehouse/auth-lib';
import { Link } from 'react-router-dom';
import { canOpen } from '../routing/access';
import { useShell } from '../ShellContext';

export function HomePage() {
  const { config } = useShell();
  const snapshot = useAuth();
  const { session } = snapshot;
  const apps = config.remotes.filter((remote) => canOpen(snapshot, remote));
  return (
    <>
      {/* elementtiming: when the heading is painted (Element Timing API), measured by bench/ */}
      <h1 {...{ elementtiming: 'home-heading' }}>Home</h1>
      <p>Gatehouse brings independently deployed apps together behind one sign-in.</p>
      {snapshot.status === 'anonymous' && (
        <section className="gh-card">
          <p>Sign in to see the apps your account may use.</p>
          <button type="button" className="gh-button" onClick={() => void session.login({ redirectTo: '/' })}>
            Sign in
          </button>
        </section>
      )}
      {snapshot.status === 'authenticated' && (
        <section className="gh-card">
          <p>
            Welcome, {snapshot.user?.name}. {apps.length === 0 ? 'No apps are open to your account yet.' : 'Your apps:'}
          </p>
          <ul>
            {apps.map((remote) => (
              <li key={remote.name}>
                <Link to={remote.route}>{remote.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
