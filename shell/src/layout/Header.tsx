import { SignedInUser, useAuth } from '@gatehouse/auth-lib';
import { useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { canOpen } from '../routing/access';
import { useShell } from '../ShellContext';

/**
 * The shell's header: navigation to the remotes the visitor may open, who is signed in, sign in/out. On a
 * narrow screen (gatehouse.css) the navigation and the user's part fold behind a "Menu" button; the menu
 * closes on Escape (focus back on the button) and when the visitor goes to another page.
 */
export function Header() {
  const { config } = useShell();
  const snapshot = useAuth();
  const { session } = snapshot;
  const { pathname } = useLocation();
  // Open for the page it was opened on: moving to another page closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);
  const links = config.remotes.filter((remote) => canOpen(snapshot, remote));
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpenOn(null);
    menuButton.current?.focus();
  };
  return (
    <header className={open ? 'gh-header gh-open' : 'gh-header'} onKeyDown={closeOnEscape}>
      <span className="gh-brand">Gatehouse</span>
      <button
        ref={menuButton}
        type="button"
        className="gh-button secondary gh-menu-button"
        aria-expanded={open}
        aria-controls="gh-nav gh-user"
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        Menu
      </button>
      <nav id="gh-nav" className="gh-nav" aria-label="Main">
        <NavLink to="/" end>
          Home
        </NavLink>
        {links.map((remote) => (
          <NavLink key={remote.name} to={remote.route}>
            {remote.title}
          </NavLink>
        ))}
      </nav>
      <div id="gh-user" className="gh-user">
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
