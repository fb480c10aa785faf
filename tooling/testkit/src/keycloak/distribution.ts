// Keycloak's build of a distribution for the options of a start (`kc.sh build`): which build a home holds, and a
// home copied from one already built for the same options.

import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { StartOptions } from './arguments';
import { KEYCLOAK_VERSION } from './common';

/** A started distribution's note of the build options it was built for (buildKey). */
export const BUILT_STAMP = '.gatehouse-built-for';

/**
 * The build options of a start: what Keycloak builds its distribution for (tens of seconds, at the first start and
 * whenever they change; `kc.sh show-config` lists them). Two starts with the same key can share one build.
 */
export function buildKey({ clusterNode, behindProxy }: StartOptions) {
  if (clusterNode) return 'start db=postgres cache=ispn health-enabled';
  return `start-dev health-enabled${behindProxy?.relativePath ? ` http-relative-path=${behindProxy.relativePath}` : ''}`;
}

/**
 * Copies the distribution in `fromDir` into `dir` when that one was started with build options `key` and the one
 * in `dir` was not (or is missing): its database and other data stay behind. Keycloak itself checks the build at
 * start and builds again if the options differ, so a copy can cost time, never correctness.
 */
export function copyBuiltDistribution(fromDir: string, dir: string, key: string) {
  const name = `keycloak-${KEYCLOAK_VERSION}`;
  const builtFor = (home: string) => (existsSync(join(home, BUILT_STAMP)) ? readFileSync(join(home, BUILT_STAMP), 'utf8').trim() : null);
  const [source, target] = [join(resolve(fromDir), name), join(dir, name)];
  if (source === target || builtFor(source) !== key || builtFor(target) === key) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(source, target, { recursive: true, filter: (path) => !path.startsWith(join(source, 'data')) });
}
