import { createTestSession, type TestSession } from '@gatehouse/auth-lib/testing';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ShellConfig } from '../config/types';
import { headerTree } from '../test-support/header';

const remote = { module: './App', realmRoles: [] as string[], clientRoles: {} as Record<string, string[]> };
const config: ShellConfig = {
  identityProvider: { url: 'http://idp', realm: 'gatehouse', clientId: 'gatehouse-shell' },
  remotes: [
    { ...remote, name: 'profile', manifest: '/p.json', route: '/profile', title: 'Profile' },
    { ...remote, name: 'admin', manifest: '/a.json', route: '/admin', title: 'Admin', realmRoles: ['admin'] },
    { ...remote, name: 'reports', manifest: '/r.json', route: '/reports', title: 'Reports', clientRoles: { reports: ['viewer'] } },
  ],
};

function renderHeader(session: TestSession) {
  render(headerTree(session, config));
  return screen.getAllByRole('link').map((link) => link.textContent);
}

describe('Header', () => {
  it('shows a signed-out visitor only Home and a sign-in button', () => {
    const session = createTestSession({ user: null });
    expect(renderHeader(session)).toEqual(['Home']);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(session.calls.login).toHaveLength(1);
  });

  it('lists the remotes the signed-in user may open, and their name', () => {
    const carol = createTestSession({
      user: { username: 'carol', name: 'Carol Chen' },
      realmRoles: ['user'],
      clientRoles: { reports: ['viewer'] },
    });
    expect(renderHeader(carol)).toEqual(['Home', 'Profile', 'Reports']);
    expect(screen.getByTestId('user-name').textContent).toBe('Carol Chen');
  });

  it('folds the navigation behind a Menu button that Escape closes, focus back on the button', () => {
    renderHeader(createTestSession({ user: { username: 'bob' }, realmRoles: ['user'] }));
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(menu.getAttribute('aria-controls')).toBe('gh-nav gh-user');
    expect(document.getElementById('gh-nav')?.tagName).toBe('NAV');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('banner').className).toContain('gh-open');

    const profile = screen.getByRole('link', { name: 'Profile' });
    profile.focus();
    fireEvent.keyDown(profile, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('banner').className).not.toContain('gh-open');
    expect(document.activeElement).toBe(menu);
  });

  it('closes the menu when the visitor goes to another page', () => {
    renderHeader(createTestSession({ user: { username: 'bob' }, realmRoles: ['user'] }));
    const menu = screen.getByRole('button', { name: 'Menu' });
    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: 'Profile' }));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('signs out to Home', () => {
    const alice = createTestSession({ user: { username: 'alice' }, realmRoles: ['admin'], clientRoles: { reports: ['viewer'] } });
    expect(renderHeader(alice)).toEqual(['Home', 'Profile', 'Admin', 'Reports']);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(alice.calls.logout).toEqual([{ redirectTo: '/' }]);
  });
});
