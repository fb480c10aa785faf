/**
 * The shell's federated `./auth` module: the contract around the page's session. It re-exports the shared
 * @gatehouse/auth-lib, whose `getSession()`, `whenSession()` and `authFetch` give the page view of the session
 * (decisions/0109): the page's token, without any API audience, and a `forApi` that refuses every API. The root
 * session stays in the shell; a remote gets its own API's view through its own `@gatehouse/auth-lib` import.
 * Its signatures are pinned in shell/api/auth.api.md (auth-lib's unit tests check it; a change to it is accepted
 * with `npm run api:update -w @gatehouse/auth-lib`).
 */
export { authFetch, AuthError, getSession, VERSION, whenSession } from '@gatehouse/auth-lib';
export type { Session, SessionSnapshot, User } from '@gatehouse/auth-lib';
