import type { DpopDependencies } from './dpop/dpop';
import type { KeycloakFactory } from './keycloak/keycloak';
import type { TabChannelFactory } from './tabs/tabChannel';
import type { MessageTarget } from './watch/frameRefusal';
import type { TabLocks } from './tabs/tabLeader';
import type { PageVisibility } from './tabs/tabVisibility';
import type { BackoffSettings } from './tokens/tokenManager';
import type { TokenVerifier } from './tokens/tokenVerifier';

/** The address parts of the page the session needs. */
export type PageLocation = Pick<Location, 'origin' | 'href' | 'pathname' | 'search' | 'hash'>;

/** Collaborators of a session; every one has a browser default and exists so tests can pass fakes. */
export interface SessionDependencies {
  /** builds the keycloak-js instance; default loads keycloak-js */
  readonly keycloakFactory?: KeycloakFactory;
  /** channel to the page's other tabs; default `BroadcastChannel`, `null` to turn it off */
  readonly tabChannel?: TabChannelFactory | null;
  /** leader election between tabs; default `navigator.locks`, `null`: every tab refreshes for itself */
  readonly tabLocks?: TabLocks | null;
  /** used by `authFetch`; default the global `fetch` */
  readonly fetch?: typeof fetch;
  /** the DPoP key's store and proof signing (decisions/0110); default IndexedDB, WebCrypto and `dpop` */
  readonly dpop?: DpopDependencies;
  readonly location?: PageLocation;
  /** where the provider's login-status frame posts its answers; default the page's window, `null` to not listen */
  readonly window?: MessageTarget | null;
  /** whether `authFetch` warns about untrusted origins; default: not a production build */
  readonly development?: boolean;
  readonly backoff?: BackoffSettings;
  /** where visitor activity is watched for `idleTimeoutMinutes`; default the page's window */
  readonly activityTarget?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  /** milliseconds the `onBeforeSessionEnd` handlers get together; default 5000 */
  readonly beforeEndBudgetMs?: number;
  /** whether this tab is visible (the session watch pauses while every tab is hidden); default the document's */
  readonly visibility?: PageVisibility | null;
  /** checks another tab's tokens before they are used; default: their signatures against the provider's published keys (jose) */
  readonly verifyTokens?: TokenVerifier;
}
