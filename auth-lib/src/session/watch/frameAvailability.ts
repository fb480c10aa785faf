import type { ResolvedConfig } from '../config';
import type { MessageTarget } from './frameRefusal';

/**
 * Whether keycloak-js's login-status frame can run in this browser. keycloak-js first loads the provider's
 * third-party-cookie check in a hidden frame; when that answers `unsupported` (the browser blocks the
 * provider's cookies in a frame of this site), keycloak-js turns the status frame off without saying so
 * (its own warning needs `enableLogging`). The answer comes from the provider's origin to this window, so
 * it is watched here, like the frame's `error` in SessionCheckWatch.
 */
export class FrameAvailability {
  private blocked = false;
  private readonly listeners = new Set<() => void>();

  constructor(target: MessageTarget | null | undefined, providerUrl: string) {
    if (!target) return;
    const providerOrigin = new URL(providerUrl).origin;
    target.addEventListener('message', (event: MessageEvent) => {
      if (event.origin === providerOrigin && event.data === 'unsupported') this.markUnavailable();
    });
  }

  /** The check answered `unsupported` here, or in another tab of this browser (a seeded tab runs no check of its own). */
  markUnavailable(): void {
    if (this.blocked) return;
    this.blocked = true;
    for (const listener of [...this.listeners]) listener();
  }

  /** false once the provider's third-party-cookie check answered `unsupported` (it stays so for the page) */
  get available(): boolean {
    return !this.blocked;
  }

  onUnavailable(listener: () => void): void {
    this.listeners.add(listener);
  }
}

/** What a developer reads in the console when the frame is unavailable (development builds only). */
export function frameUnavailableMessage(config: ResolvedConfig, origin: string): string {
  const fallback =
    config.sessionWatchSeconds > 0
      ? `auth-lib asks the provider every ${config.sessionWatchSeconds} s from one tab instead while the page is used, every ${Math.max(config.sessionWatchSeconds, config.sessionWatchIdleSeconds)} s while it is not (sessionWatch "refresh")`
      : 'sessionWatchSeconds is 0, so a session ended elsewhere is noticed only at the next refresh (sessionWatch "none")';
  return (
    `Gatehouse: this browser blocks the identity provider's cookies in frames of ${origin} (third-party cookies), ` +
    `so keycloak-js cannot use its login-status frame or silent check-sso: a reload signs in through a full-page ` +
    `round trip, and ${fallback}. To keep the frame, put the provider on this site (e.g. sso.<your domain>) or proxy ` +
    `it under ${origin}; then set identityProvider.url to that address.`
  );
}
