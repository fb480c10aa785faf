import { pageTitle } from './pageTitle';

const remotes = [
  { route: '/profile', title: 'Profile' },
  { route: '/reports', title: 'Reports' },
];

describe('pageTitle', () => {
  it("names a remote's page from the registry's title, also below its route", () => {
    expect(pageTitle('/profile', remotes)).toBe('Profile · Gatehouse');
    expect(pageTitle('/reports/2026/q1', remotes)).toBe('Reports · Gatehouse');
  });

  it('names Home and, for any other path, Page not found', () => {
    expect(pageTitle('/', remotes)).toBe('Home · Gatehouse');
    expect(pageTitle('/profiles', remotes)).toBe('Page not found · Gatehouse');
    expect(pageTitle('/nowhere', remotes)).toBe('Page not found · Gatehouse');
  });
});
