// Security round: config.json cannot name keys that a plain-object look-up would find on
// Object.prototype, nor a route that climbs out of its segment.
import { validateConfig } from './validate';

const identityProvider = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const profile = { name: 'profile', manifest: 'http://localhost:3001/mf-manifest.json', route: '/profile', title: 'Profile' };

function problemsOf(remote: object): readonly string[] {
  // through JSON.parse, as the shell reads config.json: "__proto__" becomes an own key there
  const result = validateConfig(
    JSON.parse(JSON.stringify({ identityProvider, remotes: [{ ...profile, ...remote }] }).replace('"PROTO"', '"__proto__"')),
  );
  return result.ok ? [] : result.problems;
}

test.each(['constructor', 'PROTO', 'toString'])('a client id "%s" in clientRoles is refused, naming the key', (client) => {
  const key = client === 'PROTO' ? '__proto__' : client;
  expect(problemsOf({ clientRoles: { [client]: ['viewer'] } })).toEqual([
    `remotes[0] ("profile").clientRoles has the key "${key}", which must not be a name of Object.prototype such as "constructor" or "__proto__" (a look-up would find the prototype's property).`,
  ]);
});

test.each(['constructor', 'PROTO', 'hasOwnProperty'])('a remote named "%s" is refused', (name) => {
  const problems = problemsOf({ name });
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/\.name must not be a name of Object\.prototype/);
});

test.each(['/..', '/.', '/profile/..', '/a/./b'])('the route "%s" is refused', (route) => {
  expect(problemsOf({ route })).toEqual([
    `remotes[0] ("profile").route must be a path such as "/profile" (not "/", no trailing slash, no "." or ".." segment); it is "${route}".`,
  ]);
});

test.each(['/a..b', '/.well-known-app', '/profile.v2'])('the route "%s", whose dots are inside a segment, is accepted', (route) => {
  expect(problemsOf({ route })).toEqual([]);
});
