/**
 * `@gatehouse/federation`: the webpack + Module Federation settings every Gatehouse app shares.
 * Public: `defineApp` (an app's whole webpack config) and the shared-package lists the contract check reads;
 * everything else (plugins, file names, the router subset) is how `defineApp` works and stays internal.
 */
export { defineApp } from './appConfig';
export type { AppDefinition } from './appConfig';
export { SHARED_PACKAGES, STRICT_PACKAGES } from './shared';
