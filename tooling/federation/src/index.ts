export { defineApp, htmlPage, MANIFEST, REMOTE_ENTRY, ROUTER_SUBSET, STYLESHEET } from './appConfig';
export type { AppDefinition, WebpackArgv } from './appConfig';
export { installedVersion, sharedDependencies, SHARED_PACKAGES, STRICT_PACKAGES } from './shared';
export type { SharedEntry, SharedMap } from './shared';
export { PublicFilesPlugin } from './publicFiles';
export { RouterSubsetPlugin, ROUTER_REQUEST } from './routerSubset';
export { devServerCors, originAllowed, SHELL_DEV_ORIGIN } from './devServerCors';
export { RUNS_FROM_SOURCE, SOURCE_CONDITION } from './workspaceSource';
