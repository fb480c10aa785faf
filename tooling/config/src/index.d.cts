// Types of the Node entry (index.cjs). The functions are JSDoc-typed in csp.cjs and checked there (tsconfig.json).
export type { SchemaError, SchemaValidator } from './validators.generated.cjs';
export { validateShellConfig, validateStandaloneConfig, validateCspAdditions } from './validators.generated.cjs';
export { describeSchemaErrors } from './problems.cjs';

/**
 * A shell config.json as parsed: the keys the CSP functions read (the format is config.schema.json). It comes from a
 * file, so the functions check what they read before they rely on it.
 */
export interface ShellConfig {
  identityProvider: { url: string; realm: string; clientId: string; trustedOrigins?: string[] };
  remotes: Array<{
    name: string;
    manifest: string;
    route: string;
    title: string;
    api?: { url: string; audience: string; scope: string };
    /** the public keys its release statement (mf-release.json) must be signed with: 1, or 2 while a key rotates */
    signingKeys?: ReleaseKey[];
  }>;
  overrides?: { allowedOrigins: string[] };
  /** the session-events service (decisions/0118): its public URL, which the CSP's connect-src names */
  sessionEvents?: { url: string };
}

/** A public key a registry pins for a remote's releases (config.schema.json's `releaseKey`): an EC P-256 JWK. */
export interface ReleaseKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid?: string;
  alg?: 'ES256';
  use?: 'sig';
}

/** Sources for the shell's CSP beyond those config.json names (a deployment description's "csp"). */
export interface CspAdditions {
  connectSrc?: string[];
  styleSrc?: string[];
  imgSrc?: string[];
}

/** The absolute path of config.schema.json. */
export declare const SCHEMA_FILE: string;
/** The origin of an http(s) URL; throws naming `where` otherwise. */
export declare function originOf(url: string, where: string): string;
/** The remotes of a config.json with the origins of their code and of their API (null: the shell's own origin / none). */
export declare function remotesOf(
  config: ShellConfig,
): Array<{ name: string; manifestUrl: string; origin: string | null; apiOrigin: string | null }>;
/** `overrides.allowedOrigins` as CSP sources. */
export declare function overrideOriginsOf(config: ShellConfig): string[];
/** The identity provider's origin. */
export declare function identityProviderOriginOf(config: ShellConfig): string;
/** Throws unless `config` passes config.schema.json and `extra` its CSP additions, listing every problem. */
export declare function assertValidInput(config: unknown, extra?: unknown): void;
/** The shell's Content-Security-Policy for a config.json (validated first). */
export declare function shellCsp(config: ShellConfig | unknown, extra?: CspAdditions): string;
/** What the shell's dev server adds to the production CSP: the WebSocket of each code origin's dev server. */
export declare function devCspAdditions(config: ShellConfig | unknown): CspAdditions;
/** The Content-Security-Policy of a remote's own (standalone) page. */
export declare function remoteCsp(config: ShellConfig, name?: string): string;
export declare const PERMISSIONS_POLICY: string;
export declare const HSTS: string;
/** The CSP a dev server sends on a page without one of its own: no framing elsewhere, no `<base>` elsewhere, no plugins. */
export declare const DEV_FLOOR_CSP: string;
/** The security headers of every page, given its CSP; `https` adds Strict-Transport-Security. */
export declare function securityHeaders(csp: string, options?: { https?: boolean }): Record<string, string>;
