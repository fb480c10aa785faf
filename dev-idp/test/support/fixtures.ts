import { testRealm } from '../../src/index.js';
import type { RealmRepresentation } from '../../src/index.js';

/** A small realm like the demo one, under a name of the test's choosing, with client `spa`. */
export function demoRealm(name: string, origin = 'http://localhost:3000'): RealmRepresentation {
  return testRealm(name, { clientId: 'spa', origin });
}

/** The app both providers redirect to; nothing listens there (redirects are read, not followed). */
export const APP = 'http://localhost:3000';
export const CLIENT = 'spa';

/** The demo realm's shape (testRealm) with client `spa` for APP, a client `wild` allowed `${APP}/app/*`, and a second user, bob, to compare what happens across users. */
export function twoUserRealm(name: string): RealmRepresentation {
  const rep = testRealm(name, { clientId: CLIENT, origin: APP });
  rep.clients?.push({
    clientId: 'wild',
    enabled: true,
    publicClient: true,
    standardFlowEnabled: true,
    redirectUris: [`${APP}/app/*`],
    webOrigins: ['+'],
    attributes: { 'pkce.code.challenge.method': 'S256' },
  });
  rep.users?.push({
    username: 'bob',
    enabled: true,
    email: 'bob@example.com',
    emailVerified: true,
    firstName: 'Bob',
    lastName: 'Brown',
    credentials: [{ type: 'password', value: 'bob' }],
    realmRoles: [`default-roles-${name}`, 'user'],
  });
  return rep;
}
