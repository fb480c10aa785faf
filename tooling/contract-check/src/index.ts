export { checkContract } from './checkContract';
export type { ContractInput, ContractReport, Finding, FindingStatus } from './checkContract';
export { findShellDir, readAppPackage, readInstalledVersion } from './appPackage';
export type { AppPackage, InstalledVersionReader } from './appPackage';
export { formatReport } from './formatReport';
export { runContractCheck } from './cli';
export { runContractCheckCli } from './deployedShellCli';
export { checkAgainstDeployedShell, parseManifest, readRemoteManifest, registryOf } from './shellOverHttp';
export type { DeployedShellInput, FederationManifest, JsonFetcher, ManifestShared, RegistryEntry } from './shellOverHttp';
