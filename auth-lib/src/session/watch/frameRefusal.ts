import type { ResolvedConfig } from '../config';

/** Where the login-status frame posts its answers: the page's window. */
export type MessageTarget = Pick<Window, 'addEventListener'>;

/**
 * keycloak-js signs the page out on any answer of the login-status frame but `unchanged` and reports
 * only `onAuthLogout`. The frame's own answer tells a session that ended (`changed`) from a check the
 * provider refused (`error`: this origin is not a web origin of the client, or the client is disabled),
 * which is a configuration problem that signing in again cannot fix — so it is watched here.
 */
export class SessionCheckWatch {
  private refused = false;

  constructor(target: MessageTarget | null | undefined, providerUrl: string) {
    if (!target) return;
    const providerOrigin = new URL(providerUrl).origin;
    target.addEventListener('message', (event: MessageEvent) => {
      if (event.origin === providerOrigin && event.data === 'error') this.refused = true;
    });
  }

  /** Whether the provider refused a check since the last call. */
  takeRefused(): boolean {
    const refused = this.refused;
    this.refused = false;
    return refused;
  }
}

/** What a developer or operator reads in the console when the provider refuses the page's session check. */
export function sessionCheckRefusedMessage(config: ResolvedConfig, origin: string): string {
  return (
    `Gatehouse: the identity provider at ${config.url} refused the login-status check of ${origin} for client ` +
    `"${config.clientId}" of realm "${config.realm}", so keycloak-js signed this page out. Add ${origin} to the ` +
    `client's Web origins (or "+" with a matching redirect URI) and check that the client is enabled.`
  );
}
