// Security round: a client id "constructor" blanked the whole shell after sign-in
// ("f.includes is not a function"); now the look-up finds nothing, and an error that does escape leaves
// the visitor a sentence and Reload.
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { render, screen } from '@testing-library/react';
import type { ShellConfig } from './config/types';
import { ShellErrorBoundary } from './ShellErrorBoundary';
import { headerTree } from './test-support/header';

const remote = { module: './App', realmRoles: [] as string[], manifest: '/r.json' };
const config: ShellConfig = {
  identityProvider: { url: 'http://idp', realm: 'gatehouse', clientId: 'gatehouse-shell' },
  remotes: [
    { ...remote, name: 'profile', route: '/profile', title: 'Profile', clientRoles: {} },
    // as if it got past the schema: a plain-object look-up of "constructor" finds Object's constructor
    { ...remote, name: 'hostile', route: '/hostile', title: 'Hostile', clientRoles: { constructor: ['name'] } },
  ],
};

afterEach(() => jest.restoreAllMocks());

test('a signed-in visitor sees the navigation, without the remote that needs a "constructor" client role', () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const session = createTestSession({ user: { username: 'bob' }, realmRoles: ['user'] });
  render(<ShellErrorBoundary>{headerTree(session, config)}</ShellErrorBoundary>);
  const links = screen.getAllByRole('link').map((link) => link.textContent);
  expect(links).toContain('Profile');
  expect(links).not.toContain('Hostile');
});

test('an error that escapes every other boundary leaves "Something went wrong" and Reload, not a blank page', () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const Broken = () => {
    throw new Error('boom');
  };
  render(
    <ShellErrorBoundary>
      <Broken />
    </ShellErrorBoundary>,
  );
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Something went wrong');
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  expect(error).toHaveBeenCalledWith('Gatehouse: the shell failed', expect.any(Error), expect.any(String));
});
