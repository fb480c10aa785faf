import { Outlet } from 'react-router-dom';
import { Header } from './Header';
import { SessionNotice } from './SessionNotice';

export function Layout() {
  return (
    <>
      <Header />
      <main className="gh-main">
        <SessionNotice />
        <Outlet />
      </main>
    </>
  );
}
