import path from 'node:path';

/**
 * The export condition under which Gatehouse's own packages resolve to their TypeScript source inside
 * this repository (decisions/0017), as TanStack's workspace packages do: no package needs a build
 * before another one, a test or a dev server uses it. Published tarballs resolve to `dist/` instead.
 */
export const SOURCE_CONDITION = '@gatehouse/source';

/**
 * True when this preset runs from its TypeScript source, i.e. inside the Gatehouse repository; false
 * for the compiled copy a remote in its own repository installs. Only then does a build ask for the
 * source condition: a published package ships no `src/`.
 */
export const RUNS_FROM_SOURCE = path.extname(__filename) === '.ts';

/** A file of this package beside this module, in the form this copy runs from (`router.ts` or `router.js`). */
export function siblingModule(name: string): string {
  return path.join(__dirname, `${name}${path.extname(__filename)}`);
}
