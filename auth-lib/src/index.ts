/**
 * `@gatehouse/auth-lib`: the auth contract between the Gatehouse shell and its remotes.
 * Everything public is named here; anything not exported from this file is internal.
 */

// The session core (no framework)
export { createSession, getSession, whenSession } from './session/createSession';
export { remoteView } from './session/apis/remoteView';
export { preloadIdentityClient } from './session/keycloak/preload';
export { authFetch } from './pageAuthFetch';

// The contract's types and errors
export type {
  LoginOptions,
  LogoutOptions,
  Profile,
  RefreshFailure,
  Session,
  ApiBinding,
  SessionConfig,
  SessionEvent,
  SessionEventsConfig,
  SessionSnapshot,
  SessionStatus,
  SessionWatch,
  SignOutReason,
  TokenOptions,
  User,
} from './types';
export { AuthError } from './errors';
export type { AuthErrorCode } from './errors';

// The React layer
export { AuthProvider } from './react/AuthProvider';
export type { AuthProviderProps } from './react/AuthProvider';
export { useAuth } from './react/useAuth';
export type { AuthState } from './react/useAuth';
export { useUser } from './react/useUser';
export { useRoles } from './react/useRoles';
export type { Roles } from './react/useRoles';
export { useToken } from './react/useToken';
export { useSessionExpiry } from './react/useSessionExpiry';
export type { SessionExpiryState } from './react/useSessionExpiry';
export { useSignInOnce } from './react/useSignInOnce';
export { RequireAuth } from './react/RequireAuth';
export type { RequireAuthProps } from './react/RequireAuth';
export { RequireRole } from './react/RequireRole';
export type { RequireRoleProps } from './react/RequireRole';
export { SignedInUser } from './react/SignedInUser';
export type { SignedInUserProps } from './react/SignedInUser';

// The version (the static files are `@gatehouse/auth-lib/public/silent-check-sso.{html,js}`)
export { VERSION } from './version';
