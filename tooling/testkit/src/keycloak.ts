// A real Keycloak 26 on this machine, without a container: `npm run keycloak`, `npm start -- --idp keycloak`
// and `npm run test:keycloak` all start it through startKeycloak() (decisions/0034).
//
// The server distribution comes from Maven Central through Maven's own client (`mvn dependency:copy` of
// org.keycloak:keycloak-quarkus-dist:<version>:zip), which caches it in ~/.m2, so it is downloaded once. Its
// SHA-512 is checked against the pinned one (KEYCLOAK_SHA512) before it is unpacked into .keycloak/ (git-ignored)
// and run there with `kc.sh start-dev`, every port on loopback: its H2 database lives in
// .keycloak/keycloak-<version>/data/, the administrator's generated password in .keycloak/admin-password (0600).
// Plain Node, no dependencies.
//
// One module per concern, under keycloak/: common (the release, paths, the error), credentials (the administrator's
// password), download (Maven, the checksum, the unpack), realm (the realm import, the theme), arguments (the start's
// options and kc.sh's arguments), distribution (the build a home holds), start (the process, its readiness, its
// stop) and provider (which provider the tests use). This module is what the rest of the repository imports.

export type { BehindProxy, ClusterNode, StartOptions } from './keycloak/arguments';
export { clusterNodeArgs, startDevArgs } from './keycloak/arguments';
export type { KeycloakRunnerErrorCode } from './keycloak/common';
export { ADMIN_PASSWORD_FILE, ADMIN_USERNAME, KEYCLOAK_VERSION, KeycloakRunnerError } from './keycloak/common';
export { adminPassword } from './keycloak/credentials';
export { BUILT_STAMP, buildKey, copyBuiltDistribution } from './keycloak/distribution';
export { KEYCLOAK_SHA512, obtainKeycloak } from './keycloak/download';
export { chosenProvider, keycloakUnlessRunning } from './keycloak/provider';
export { prepareRealmImport, stepUpOfTheRealmFile } from './keycloak/realm';
export type { RunningKeycloak } from './keycloak/start';
export { startKeycloak } from './keycloak/start';
