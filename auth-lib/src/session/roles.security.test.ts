// Security round: client-role look-ups never reach Object.prototype, whatever the token says.
import { heldClientRoles } from './roles';
import { rolesFromClaims } from './snapshot';
import { sessionWithFake } from '../test-support/sessions';

test.each(['constructor', '__proto__', 'toString'])('a visitor holds no role of client "%s" unless the token gives one', (client) => {
  expect(heldClientRoles({}, client)).toEqual([]);
});

test('hasClientRole("constructor", …) is false for a signed-in visitor, and does not throw', async () => {
  const { session } = sessionWithFake();
  await session.ready();
  expect(session.hasClientRole('constructor', 'name')).toBe(false);
  expect(session.hasClientRole('__proto__', 'x')).toBe(false);
});

test('a token whose resource_access has a "__proto__" client keeps it as a client, not as the prototype', () => {
  const claims = JSON.parse('{"resource_access": {"__proto__": {"roles": ["viewer"]}, "reports": {"roles": ["viewer"]}}}') as Record<
    string,
    unknown
  >;
  const { clientRoles } = rolesFromClaims(claims);
  expect(Object.getPrototypeOf(clientRoles)).toBe(Object.prototype);
  expect(heldClientRoles(clientRoles, '__proto__')).toEqual(['viewer']);
  expect(heldClientRoles(clientRoles, 'reports')).toEqual(['viewer']);
});
