import { Outlet } from 'react-router-dom';
import { Header } from './Header';
import { SessionExpiryBanner } from './SessionExpiryBanner';
import { SessionNotice } from './SessionNotice';

export function Layout() {
  return (
    <>
      <Header />
      <main className="gh-main">
        <SessionExpiryBanner />
        <SessionNotice />
        <Outlet />
      </main>
    </>
  );
}
