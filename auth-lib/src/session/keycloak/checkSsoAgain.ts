import type { ResolvedConfig } from '../config';
import { initOptions } from './initOptions';
import type { KeycloakFactory, KeycloakLike } from './keycloak';
import { unreachableError } from '../sessionErrors';
import { withTimeout } from '../util/withTimeout';

/**
 * A fresh keycloak-js instance that did check-sso, as a page load does: signed in with tokens of its own
 * (`kc.token` set) when the provider's session lives, else without. For a tab that must refresh but holds no
 * refresh token, because the tab that seeded it has closed (decisions/0053). Where the provider's frames
 * cannot run (third-party cookies blocked, provider on another site) keycloak-js falls back to its full-page
 * check-sso, which comes back to this page's address, unless `silentOnly` (a signed-out tab asking because another
 * tab signed in: it stays signed out there).
 */
export async function checkSsoAgain(
  factory: KeycloakFactory,
  config: ResolvedConfig,
  redirectUri: string,
  options: { silentOnly?: boolean } = {},
): Promise<KeycloakLike> {
  const unreachable = () => unreachableError(config);
  const kc = await withTimeout(
    Promise.resolve().then(() => factory(config)),
    config.timeout,
    unreachable,
  );
  // `silentOnly`: where the frames cannot run, no full-page round trip either (keycloak-js then answers "not signed in")
  const init = options.silentOnly
    ? { ...initOptions(config, redirectUri), silentCheckSsoFallback: false }
    : initOptions(config, redirectUri);
  await withTimeout(kc.init(init), config.timeout, unreachable);
  return kc;
}
