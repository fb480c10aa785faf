import type { SignOutReason } from '../../types';
import type { KeycloakLike } from './keycloak';

export interface KeycloakCallbacks {
  /** whether `kc` is still the session's instance (answers of a replaced one are ignored) */
  current(): boolean;
  refreshed(): void;
  /** keycloak-js dropped its tokens; `frameRefused`: the login-status frame answered `error` */
  ended(reason: Extract<SignOutReason, 'session-ended' | 'refresh-refused'>): void;
}

/**
 * Turns keycloak-js's single callbacks into the session's: keycloak-js calls onAuthLogout both when the
 * login-status frame reports a change and when a refresh got HTTP 400 (then onAuthRefreshError follows in
 * the same tick), so a microtask tells the two apart.
 */
export function wireKeycloak(kc: KeycloakLike, callbacks: KeycloakCallbacks): void {
  let logoutPending = false;
  kc.onAuthRefreshSuccess = () => {
    if (callbacks.current()) callbacks.refreshed();
  };
  kc.onAuthLogout = () => {
    if (!callbacks.current()) return;
    logoutPending = true;
    queueMicrotask(() => {
      if (!logoutPending) return;
      logoutPending = false;
      callbacks.ended('session-ended');
    });
  };
  kc.onAuthRefreshError = () => {
    if (!callbacks.current() || !logoutPending) return;
    logoutPending = false;
    callbacks.ended('refresh-refused');
  };
}

/** An instance being replaced may still answer later; it must not change the session. */
export function unwireKeycloak(kc: KeycloakLike | null): void {
  if (!kc) return;
  kc.onAuthRefreshSuccess = undefined;
  kc.onAuthLogout = undefined;
  kc.onAuthRefreshError = undefined;
}
