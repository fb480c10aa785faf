export { defineApp, htmlPage, MANIFEST, REMOTE_ENTRY, STYLESHEET } from './appConfig';
export type { AppDefinition, WebpackArgv } from './appConfig';
export { installedVersion, sharedDependencies, SHARED_PACKAGES, STRICT_PACKAGES } from './shared';
export type { SharedEntry, SharedMap } from './shared';
export { PublicFilesPlugin } from './publicFiles';
