import { describeSchemaErrors, validateShellConfig } from '@gatehouse/config';

// A remote's registry entry pins the public keys its releases are signed with (decisions/0117): one, or two while a
// key rotates. A wrong key is refused with what is wrong and what to do.

const KEY = {
  kty: 'EC',
  crv: 'P-256',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
};
const NEXT = { ...KEY, x: 'gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0', kid: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' };

function problems(signingKeys: unknown): string[] {
  const config = {
    identityProvider: { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' },
    remotes: [{ name: 'profile', manifest: '/remotes/profile/mf-manifest.json', route: '/profile', title: 'Profile', signingKeys }],
  };
  return validateShellConfig(config) ? [] : describeSchemaErrors(validateShellConfig.errors, config);
}

test('a remote pins one key, or two while a key rotates (with their kid, alg and use, as the key tool prints them)', () => {
  expect(problems([KEY])).toEqual([]);
  expect(problems([KEY, { ...NEXT, alg: 'ES256', use: 'sig' }])).toEqual([]);
});

test.each([
  ['no key', [], 'signingKeys must list at least one public key'],
  ['three keys', [KEY, NEXT, { ...NEXT, y: KEY.x }], 'must list at most 2 public keys (the current one and the next, while a key rotates)'],
  ['the same key twice', [KEY, KEY], 'lists the same key twice'],
  ['a key that is not a list', KEY, 'must be an array of 1 or 2 public keys'],
  ['an RSA key', [{ ...KEY, kty: 'RSA' }], 'signingKeys[0].kty must be "EC": release keys are ECDSA P-256 keys'],
  ['another curve', [{ ...KEY, crv: 'P-384' }], 'signingKeys[0].crv must be "P-256"'],
  ['a cut coordinate', [{ ...KEY, x: KEY.x.slice(1) }], "signingKeys[0].x must be the key's x coordinate, 43 base64url characters"],
  ['another algorithm', [{ ...KEY, alg: 'RS256' }], 'signingKeys[0].alg must be "ES256" or be left out'],
  ['a key for encryption', [{ ...KEY, use: 'enc' }], 'signingKeys[0].use must be "sig"'],
])('refuses %s, saying what to do', (_, keys, message) => {
  expect(problems(keys).join('\n')).toContain(message);
});

test('refuses a private key, saying the key is no longer secret and where the private key belongs', () => {
  const found = problems([{ ...KEY, d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI' }]);
  expect(found).toEqual([expect.stringContaining('remotes[0] ("profile").signingKeys[0].d is the private part of the key: remove "d"')]);
  expect(found[0]).toContain('make a new one with `npm run release-key -- <remote>`');
  expect(found[0]).not.toContain('jpsQnnGQ'); // the secret is not echoed into logs
});
