import { useEffect, useRef, type MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { pageTitle } from '../routing/pageTitle';
import { useShell } from '../ShellContext';
import { Header } from './Header';
import { SessionExpiryBanner } from './SessionExpiryBanner';
import { SessionNotice } from './SessionNotice';
import { useFocusOnNavigation } from './useFocusOnNavigation';

/** Every page of the shell: a skip link, the header (banner, navigation), and `main` with the page's content. */
export function Layout() {
  const { config } = useShell();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = pageTitle(pathname, config.remotes);
  }, [pathname, config.remotes]);
  useFocusOnNavigation(main);
  // Focus moves without changing the address: a fragment (#main) would be one more history entry, and
  // keycloak-js reads the fragment of a page it returns to.
  const skipToMain = (event: MouseEvent) => {
    event.preventDefault();
    const target = main.current?.querySelector('h1') ?? main.current;
    if (!target) return;
    target.tabIndex = -1;
    target.focus();
  };
  return (
    <>
      <a className="gh-skip" href="#main" onClick={skipToMain}>
        Skip to main content
      </a>
      <Header />
      <main id="main" ref={main} className="gh-main" tabIndex={-1}>
        <SessionExpiryBanner />
        <SessionNotice />
        <Outlet />
      </main>
    </>
  );
}
