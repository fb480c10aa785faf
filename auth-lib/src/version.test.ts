import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertCompatibleVersion, isCompatibleVersion, VERSION } from './version';

test('VERSION matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  expect(VERSION).toBe(pkg.version);
});

test.each([
  ['1.0.0', '1.0.0', true],
  ['1.4.2', '1.2.0', true],
  ['1.4.2', '^1.2.0', true],
  ['1.1.0', '1.2.0', false],
  ['2.0.0', '1.2.0', false],
  ['1.0.0', '2.0.0', false],
  ['0.3.1', '0.3.0', true],
  ['0.4.0', '0.3.0', false],
  ['1.0.0-rc.1', '1.0.0', false],
  ['1.0.0', '1.0.0-rc.1', true],
  ['latest', '1.0.0', false],
  ['1.0', '1.0.0', false],
])('isCompatibleVersion(%s, %s) is %s', (provided, required, expected) => {
  expect(isCompatibleVersion(provided, required)).toBe(expected);
});

test('assertCompatibleVersion says which side to rebuild', () => {
  expect(() => assertCompatibleVersion('2.0.0', '1.3.0', 'remote "reports"')).toThrow(
    expect.objectContaining({
      code: 'incompatible-version',
      message: expect.stringMatching(/remote "reports" was built against @gatehouse\/auth-lib 1\.3\.0, but the shell provides 2\.0\.0/),
    }),
  );
  expect(() => assertCompatibleVersion('1.3.1', '1.3.0')).not.toThrow();
});
