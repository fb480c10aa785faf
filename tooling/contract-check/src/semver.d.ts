// The few functions of `semver` (6.x, already in the workspace) this package uses; semver ships no types
// and @types/semver would be a new dependency for five signatures.
declare module 'semver' {
  export function valid(version: string): string | null;
  export function validRange(range: string): string | null;
  export function satisfies(version: string, range: string): boolean;
  export function minVersion(range: string): { readonly version: string } | null;
  export function major(version: string): number;
}
