/**
 * What the shell reads from `/config.json` at start-up. The format is tooling/config/config.schema.json (every key
 * documented there and in shell/README.md); these types describe a config that passed it.
 */
import type { ApiBinding, SessionConfig, SessionEventsConfig } from '@gatehouse/auth-lib';
import type { ReleasePublicKey } from '@gatehouse/federation/release';

/** The identity provider: auth-lib's SessionConfig, every option of it (config.schema.test.ts keeps the two equal). */
export type IdentityProviderConfig = SessionConfig;

/** One remote of the registry. */
export interface RemoteConfig {
  /** the remote's federation name (its container's global), e.g. `profile` */
  readonly name: string;
  /** absolute URL (or path on the shell's origin) of the remote's `mf-manifest.json` */
  readonly manifest: string;
  /** the federated module to render; `./App` unless said otherwise */
  readonly module: string;
  /** the route the remote owns, e.g. `/profile`; the remote routes relatively below it */
  readonly route: string;
  /** the navigation title */
  readonly title: string;
  /** realm roles the visitor needs (all of them) */
  readonly realmRoles: readonly string[];
  /** client id → roles of that client the visitor needs (all of them) */
  readonly clientRoles: Readonly<Record<string, readonly string[]>>;
  /**
   * the level of authentication the remote needs, e.g. `"gold"` (a name of the realm's `acr.loa.map`) or a
   * level such as `"2"`; a weaker session is asked to step up before anything of the remote is fetched.
   * Absent: any signed-in session.
   */
  readonly acr?: string;
  /**
   * the API the remote calls: inside the remote, `getToken()`, `useToken()` and `authFetch()` use a token whose
   * audience is this API alone (auth-lib's `session.forApi`; decisions/0054). Absent: the page session's token.
   */
  readonly api?: ApiBinding;
  /**
   * the public keys (1, or 2 while a key rotates) the remote's signed releases must verify against (decisions/0117):
   * the shell runs none of its code unless `mf-release.json` beside its manifest verifies and lists every file.
   * Absent: its releases are not checked.
   */
  readonly signingKeys?: readonly ReleasePublicKey[];
}

/**
 * Whether a visitor may load a registered remote from another address, for their browser tab only
 * (`?remote.<name>=<manifest URL>`), so a team can point this shell at the remote it runs locally.
 * Absent = off. Never enable it where the listed origins are not trusted to run code on the page.
 */
export interface RemoteOverridesConfig {
  /** origins a manifest may come from: `http://localhost:3005`, or any port with `http://localhost:*` */
  readonly allowedOrigins: readonly string[];
}

export interface ShellConfig {
  readonly identityProvider: IdentityProviderConfig;
  readonly remotes: readonly RemoteConfig[];
  /** absent when overrides are off (the default) */
  readonly overrides?: RemoteOverridesConfig;
  /**
   * the session-events service (session-events/README.md): the leading tab holds one stream from it and the page ends
   * its session as soon as the provider's back-channel logout reaches the service (decisions/0118). Absent = off.
   */
  readonly sessionEvents?: SessionEventsConfig;
}

/** The result of reading or validating the config: the config, or every problem found in it. */
export type ConfigResult =
  { readonly ok: true; readonly config: ShellConfig } | { readonly ok: false; readonly problems: readonly string[] };
