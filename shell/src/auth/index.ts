/**
 * The shell's federated `./auth` module: the page's one session and the contract around it.
 * It re-exports the shared singleton @gatehouse/auth-lib, so a remote that imports `gatehouse_shell/auth`
 * and one that imports `@gatehouse/auth-lib` reach the same session object.
 */
export { authFetch, AuthError, getSession, VERSION, whenSession } from '@gatehouse/auth-lib';
export type { Session, SessionSnapshot, User } from '@gatehouse/auth-lib';
