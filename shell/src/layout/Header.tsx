import { SignedInUser, useAuth } from '@gatehouse/auth-lib';
import { NavLink } from 'react-router-dom';
import { canOpen } from '../routing/access';
import { useShell } from '../ShellContext';

/** The shell's header: navigation to the remotes the visitor may open, who is signed in, sign in/out. */
export function Header() {
  const { config } = useShell();
  const snapshot = useAuth();
  const { session } = snapshot;
  const links = config.remotes.filter((remote) => canOpen(snapshot, remote));
  return (
    <header className="gh-header">
      <span className="gh-brand">Gatehouse</span>
      <nav className="gh-nav" aria-label="Main">
        <NavLink to="/" end>
          Home
        </NavLink>
        {links.map((remote) => (
          <NavLink key={remote.name} to={remote.route}>
            {remote.title}
          </NavLink>
        ))}
      </nav>
      <div className="gh-user">
        {snapshot.status === 'loading' && <span className="gh-muted">Checking sign-in…</span>}
        <SignedInUser />
        {(snapshot.status === 'anonymous' || snapshot.status === 'error') && (
          <button type="button" className="gh-button" onClick={() => void session.login()}>
            Sign in
          </button>
        )}
      </div>
    </header>
  );
}
