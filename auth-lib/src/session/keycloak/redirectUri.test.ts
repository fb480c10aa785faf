import { CALLBACK_PARAMETERS, currentPageUrl, pageUrl, withoutCallbackParameters } from './redirectUri';

describe('withoutCallbackParameters', () => {
  test.each([
    ['/profile#error=login_required&state=abc', '/profile'],
    ['/profile?error=login_required&state=abc', '/profile'],
    ['/p?a=1&code=c&b=2#x=1&session_state=s&iss=http%3A%2F%2Fidp&y', '/p?a=1&b=2#x=1&y'],
    ['/p#error=access_denied&error_description=Login+required', '/p'],
    ['/reports?year=2024#top', '/reports?year=2024#top'],
    ['/p?q=a%20b&stateful=1#codes=2', '/p?q=a%20b&stateful=1#codes=2'],
    ['/p?%63ode=encoded-name', '/p'],
    ['/#/route?x=1', '/#/route?x=1'],
    ['/p?&&#', '/p'],
    ['https://app.example.com/p?code=c#state=s&keep', 'https://app.example.com/p#keep'],
  ])('%s → %s', (input, expected) => {
    expect(withoutCallbackParameters(input)).toBe(expected);
  });

  test('removes each of the six callback parameters from the query and from the fragment', () => {
    expect(CALLBACK_PARAMETERS).toEqual(['code', 'state', 'session_state', 'iss', 'error', 'error_description']);
    for (const name of CALLBACK_PARAMETERS) {
      expect(withoutCallbackParameters(`/p?${name}=1&k=v#${name}=2&f`)).toBe('/p?k=v#f');
    }
  });
});

describe('pageUrl', () => {
  test('is a path of this app without callback parameters', () => {
    expect(pageUrl('https://portal.example.com', '/profile#error=login_required&state=s', 'login')).toBe(
      'https://portal.example.com/profile',
    );
  });

  test.each(['https://evil.example/', '//evil.example/', '/\\evil.example', 'profile'])('refuses %s as an open redirect', (path) => {
    expect(() => pageUrl('https://portal.example.com', path, 'login')).toThrow(
      expect.objectContaining({ code: 'invalid-argument', message: expect.stringMatching(/must be a path of this app/) }),
    );
  });
});

test('currentPageUrl is the address without callback parameters', () => {
  const location = { origin: 'https://portal.example.com', pathname: '/profile', search: '?tab=1', hash: '#error=login_required&state=s' };
  expect(currentPageUrl(location)).toBe('https://portal.example.com/profile?tab=1');
});
