/** Addresses of the dev system that `npm start` (scripts/start.mjs) runs. */
export const SHELL = 'http://localhost:3000';
export const IDP = 'http://localhost:8080';
export const REALM_URL = `${IDP}/realms/gatehouse`;
export const REMOTES = {
  profile: 'http://localhost:3001',
  admin: 'http://localhost:3002',
  reports: 'http://localhost:3003',
} as const;

/** The demo API (demo-api/): `/profile`, `/admin`, `/reports`, each for a token of its own audience alone (decisions/0055). */
export const DEMO_API = 'http://localhost:3010';

/** The session-events service (session-events/): the provider's back-channel logout tokens in, a session's end out to its pages. */
export const SESSION_EVENTS = 'http://localhost:3020';

/** What answers once each part of the system is ready. */
export const READY_URLS = [
  `${REALM_URL}/.well-known/openid-configuration`,
  `${DEMO_API}/health`,
  `${SESSION_EVENTS}/health`,
  `${SHELL}/config.json`,
  ...Object.values(REMOTES).map((origin) => `${origin}/mf-manifest.json`),
];

/** The demo realm's users (deploy/keycloak/gatehouse-realm.json); the password is the username. */
export const USERS = {
  alice: { username: 'alice', name: 'Alice Anders', email: 'alice@example.com' },
  bob: { username: 'bob', name: 'Bob Brown', email: 'bob@example.com' },
  carol: { username: 'carol', name: 'Carol Chen', email: 'carol@example.com' },
} as const;

export type DemoUser = keyof typeof USERS;
