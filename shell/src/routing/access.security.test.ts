// Security round: role look-ups never reach Object.prototype.
import { canOpen, missingRoles } from './access';

const bob = { realmRoles: ['user'], clientRoles: {} };

test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
  'a required client role of client "%s" is missing for a visitor without it, and nothing throws',
  (client) => {
    const requirements = JSON.parse(`{"realmRoles": [], "clientRoles": {"${client}": ["x"]}}`) as {
      realmRoles: string[];
      clientRoles: Record<string, string[]>;
    };
    expect(missingRoles(bob, requirements)).toEqual([{ kind: 'client', client, role: 'x' }]);
  },
);

test('a visitor is not let in by a role that only the prototype seems to hold', () => {
  const snapshot = { status: 'authenticated', ...bob } as unknown as Parameters<typeof canOpen>[0];
  expect(canOpen(snapshot, { realmRoles: [], clientRoles: { constructor: ['length'] } })).toBe(false);
});
