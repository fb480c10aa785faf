import { DEV_FLOOR_CSP, devCspAdditions, remoteCsp, securityHeaders, shellCsp } from '@gatehouse/config';

// The headers nginx renders (deploy/nginx/render.mjs) and the dev servers send (tooling/federation's defineApp, the
// shell's webpack config) come from these functions; the shell's unit tests render nginx with them end to end.
const config = {
  identityProvider: { url: 'https://id.example.com/auth', realm: 'gatehouse', clientId: 'shell' },
  remotes: [
    {
      name: 'profile',
      manifest: 'https://profile.example.com/mf-manifest.json',
      route: '/profile',
      title: 'Profile',
      api: { url: 'https://api.example.com/profile', audience: 'profile-api', scope: 'profile-api' },
    },
  ],
};

test('every page: its CSP, nosniff, the referrer policy, no powerful features; HSTS over HTTPS only', () => {
  const headers = {
    'Content-Security-Policy': 'CSP',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
  expect(securityHeaders('CSP')).toEqual(headers);
  expect(securityHeaders('CSP', { https: true })).toEqual({
    ...headers,
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  });
});

test("a dev server's floor CSP blocks framing elsewhere, <base> elsewhere and plugins", () => {
  expect(DEV_FLOOR_CSP).toBe("frame-ancestors 'self'; base-uri 'self'; object-src 'none'");
});

test("the shell's CSP names the remotes' code, the provider and each remote's API; a remote's page names its own API", () => {
  expect(shellCsp(config)).toBe(
    [
      "default-src 'self'",
      "script-src 'self' https://profile.example.com",
      "style-src 'self' https://profile.example.com",
      "img-src 'self' data: https://profile.example.com",
      "font-src 'self' https://profile.example.com",
      "connect-src 'self' https://profile.example.com https://id.example.com https://api.example.com",
      "frame-src 'self' https://id.example.com",
      "form-action 'self' https://id.example.com",
      "frame-ancestors 'self'",
      "object-src 'none'",
      "base-uri 'self'",
    ].join('; '),
  );
  expect(remoteCsp(config, 'profile')).toContain("connect-src 'self' https://id.example.com https://api.example.com");
  expect(devCspAdditions(config)).toEqual({ connectSrc: ['wss://profile.example.com'] });
});

test("the session-events service's origin is in the shell's connect-src only (its stream is read with fetch), not in a remote's page", () => {
  const withEvents = { ...config, sessionEvents: { url: 'https://events.example.com/session' } };
  expect(shellCsp(withEvents)).toContain(
    "connect-src 'self' https://profile.example.com https://id.example.com https://api.example.com https://events.example.com;",
  );
  expect(remoteCsp(withEvents, 'profile')).not.toContain('events.example.com');
  expect(() => shellCsp({ ...config, sessionEvents: { url: 'https://events.example.com/?token=x' } })).toThrow(
    /config\.json: sessionEvents\.url must be the service's absolute http\(s\) URL without a query or fragment/,
  );
});

test('a config the schema refuses gets no CSP: every problem is listed', () => {
  expect(() => shellCsp({ ...config, remotes: [{ ...config.remotes[0], manifest: '/\\evil.com/mf-manifest.json' }] })).toThrow(
    /the input is invalid \(config\.schema\.json\):\n {2}config\.json: remotes\[0\] \("profile"\)\.manifest/,
  );
});
