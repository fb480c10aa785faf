import { testRealm } from '../src/index.js';
import type { RealmRepresentation } from '../src/index.js';

/** The app both providers redirect to; nothing listens there (redirects are read, not followed). */
export const APP = 'http://localhost:3000';
export const CLIENT = 'spa';

/** The demo realm's shape (testRealm) plus a second user, bob, to compare what happens across users. */
export function diffRealm(name: string): RealmRepresentation {
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
