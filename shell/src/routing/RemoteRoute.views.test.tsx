// As decisions/0109 says: the hooks inside a remote's slot read that remote's own view: its API's token,
// or the page session's where its registry entry names no API; forApi of another API is refused there.
import { AuthError, useAuth, type ApiBinding } from '@gatehouse/auth-lib';
import { createTestSession, type TestSession } from '@gatehouse/auth-lib/testing';
import { act, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import type { RemoteConfig } from '../config/types';
import { reportsRemote } from '../test-support/remotes';
import { renderRemoteRoute, slotRegistry } from '../test-support/remoteRoute';

const REPORTS_API: ApiBinding = { url: 'https://api.example.com/reports', audience: 'reports-api', scope: 'reports-api' };
const ADMIN_API: ApiBinding = { url: 'https://api.example.com/admin', audience: 'admin-api', scope: 'admin-api' };

/** A remote's App: what its hooks give it, and what forApi of the admin API answers. */
function RemoteApp() {
  const { session, getToken } = useAuth();
  const [token, setToken] = useState('');
  useEffect(() => {
    getToken().then(setToken, () => setToken('none'));
  }, [getToken]);
  let other: string;
  try {
    other = `granted ${session.forApi(ADMIN_API).api?.audience}`;
  } catch (error) {
    other = error instanceof AuthError ? `refused: ${error.message}` : String(error);
  }
  return (
    <>
      <p data-testid="token">{token}</p>
      <p data-testid="other">{other}</p>
    </>
  );
}

async function renderRemote(root: TestSession, remote: RemoteConfig) {
  const registry = slotRegistry({ open: async () => ({ default: RemoteApp }) });
  await act(async () => {
    renderRemoteRoute(root, remote, registry, '/reports');
  });
}

const signedIn = () => createTestSession({ token: 'page', user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });

test("a remote that names its API reads that API's token through the hooks; forApi of another API is refused", async () => {
  await renderRemote(signedIn(), reportsRemote({ api: REPORTS_API }));
  expect(screen.getByTestId('token').textContent).toBe('page:reports-api');
  expect(screen.getByTestId('other').textContent).toMatch(/^refused: .*"admin-api".*registry entry/);
});

test("a remote that names no API reads the page session's token; forApi of any API is refused", async () => {
  await renderRemote(signedIn(), reportsRemote());
  expect(screen.getByTestId('token').textContent).toBe('page');
  expect(screen.getByTestId('other').textContent).toMatch(/^refused: .*without any API audience/);
});
