import { AuthError } from './errors';

test('an AuthError keeps its code and message', () => {
  const error = new AuthError('invalid-config', 'config.realm is missing: set it to your realm name');
  expect(error).toBeInstanceOf(Error);
  expect(error.code).toBe('invalid-config');
  expect(error.message).toMatch(/realm/);
});
