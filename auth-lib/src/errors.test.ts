import { AuthError } from './errors';

test('an AuthError keeps its code and message', () => {
  const error = new AuthError('invalid-config', 'config.realm is missing: set it to your realm name');
  expect(error).toBeInstanceOf(Error);
  expect(error.code).toBe('invalid-config');
  expect(error.message).toMatch(/realm/);
});

test("an AuthError from a provider's answer keeps its OAuth error fields; one without has none", () => {
  const refused = new AuthError('login-failed', 'refused', { protocol: { error: 'access_denied', error_description: 'User cancelled' } });
  expect(refused).toMatchObject({ code: 'login-failed', error: 'access_denied', error_description: 'User cancelled' });
  const plain = new AuthError('no-session', 'no session');
  expect('error' in plain || 'error_description' in plain).toBe(false);
});
