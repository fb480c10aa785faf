import { resolveConfig } from './config';

const base = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const resolve = (config: unknown) => resolveConfig(config, 'http://localhost:3000');

test('fills in the defaults', () => {
  expect(resolve(base)).toEqual({
    url: 'http://localhost:8080',
    realm: 'gatehouse',
    scopes: [],
    apis: null,
    sessionEvents: null,
    clientId: 'gatehouse-shell',
    trustedOrigins: [],
    silentCheckSsoRedirectUri: 'http://localhost:3000/silent-check-sso.html',
    checkLoginIframeInterval: 5,
    expiryWarningSeconds: 60,
    idleTimeoutMinutes: 0,
    messageReceiveTimeout: 10000,
    minValidity: 5,
    timeout: 10000,
    sessionWatchSeconds: 15,
    sessionWatchIdleSeconds: 240,
  });
});

test('sessionWatchSeconds: 0 turns the checks without the frame off', () => {
  expect(resolve({ ...base, sessionWatchSeconds: 0 }).sessionWatchSeconds).toBe(0);
  expect(resolve({ ...base, sessionWatchSeconds: 20 }).sessionWatchSeconds).toBe(20);
});

test('normalises the url and trusted origins', () => {
  const config = resolve({ ...base, url: 'https://sso.example.com/auth/', trustedOrigins: ['https://api.example.com/'] });
  expect(config.url).toBe('https://sso.example.com/auth');
  expect(config.trustedOrigins).toEqual(['https://api.example.com']);
});

test.each([
  [undefined, /needs an object/],
  [{ ...base, url: undefined }, /config\.url is missing: set it to an absolute http\(s\) URL/],
  [{ ...base, url: 'localhost:8080' }, /config\.url is "localhost:8080": only http: and https: URLs work/],
  [{ ...base, url: 'not a url' }, /config\.url is "not a url", which is not an absolute URL/],
  [{ ...base, url: 'http://localhost:8080/realms/gatehouse' }, /without "\/realms\/…".*config\.realm/],
  [{ ...base, realm: '' }, /config\.realm is missing or empty: set it to your realm name/],
  [{ ...base, clientId: 42 }, /config\.clientId is missing or empty: set it to your client id/],
  [{ ...base, timeout: 0 }, /config\.timeout is 0: it must be a positive number of milliseconds \(default 10000\)/],
  [{ ...base, minValidity: 'five' }, /config\.minValidity is "five"/],
  [{ ...base, trustedOrigins: 'https://api.example.com' }, /trustedOrigins must be an array/],
  [{ ...base, trustedOrigins: ['https://api.example.com/v1'] }, /list origins only.*"https:\/\/api\.example\.com"/],
  [
    { ...base, sessionWatchSeconds: -1 },
    /config\.sessionWatchSeconds is -1: it must be a positive number of seconds \(0: off\) \(default 15\)/,
  ],
  [{ ...base, checkLoginIframInterval: 5 }, /unknown option "checkLoginIframInterval": the options are/],
])('refuses %j with a message that says what to fix', (config, message) => {
  expect(() => resolve(config)).toThrow(message);
  try {
    resolve(config);
  } catch (error) {
    expect(error).toMatchObject({ name: 'AuthError', code: 'invalid-config' });
  }
});

test("apis: the registry's APIs, checked and normalised; null when not given", () => {
  const api = { url: 'http://localhost:3010/profile', audience: 'profile-api', scope: 'profile-api' };
  expect(resolve({ ...base, apis: [api] }).apis).toEqual([api]);
  expect(() => resolve({ ...base, apis: [{ ...api, scope: 'two words' }] })).toThrow(/config\.apis\[0\]/);
  expect(() => resolve({ ...base, apis: 'profile-api' })).toThrow(/config\.apis must be an array/);
});

test("sessionEvents: the service's URL without a trailing slash; null (off) when not given; no query, fragment or credentials", () => {
  expect(resolve({ ...base, sessionEvents: { url: 'http://localhost:3020/' } }).sessionEvents).toEqual({ url: 'http://localhost:3020' });
  expect(resolve({ ...base, sessionEvents: { url: 'https://example.com/events-svc' } }).sessionEvents).toEqual({
    url: 'https://example.com/events-svc',
  });
  expect(resolve(base).sessionEvents).toBeNull();
  expect(() => resolve({ ...base, sessionEvents: { url: 'http://localhost:3020/?token=x' } })).toThrow(/sessionEvents\.url/);
  expect(() => resolve({ ...base, sessionEvents: { url: 'http://localhost:3020/#x' } })).toThrow(/sessionEvents\.url/);
  expect(() => resolve({ ...base, sessionEvents: { url: 'http://u:p@localhost:3020' } })).toThrow(/sessionEvents\.url/);
  expect(() => resolve({ ...base, sessionEvents: { url: 'ws://localhost:3020' } })).toThrow(/sessionEvents\.url/);
  expect(() => resolve({ ...base, sessionEvents: 'http://localhost:3020' })).toThrow(/sessionEvents\.url/);
});
