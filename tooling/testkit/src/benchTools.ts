// What `npm run bench` runs from outside node_modules, part by part (bench/run.mjs; its flags leave parts out), as
// the requirements systemTools' ensureTools checks: the preflight (`node scripts/preflight.mjs bench`) looks for
// each before the bench builds anything, and installs the missing ones as root on Debian, so that a run does not
// stop 20 minutes in for a program it could have named at the start. Plain Node, no dependencies.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumInstallCommand, findChromium } from './chromium';
import { findJava } from './java';
import { KEYCLOAK_VERSION } from './keycloak';
import { findNginx, nginxInstallCommand } from './nginx';
import { installCommand, isDebian, isRoot, onPath } from './systemTools';
import type { ToolRequirement } from './systemTools';
import { opensslInstallCommand } from './tls';

export type { ToolRequirement };

/**
 * Java packages apt-get may have, the first it has is installed: Debian 13 and Ubuntu 24.04 have OpenJDK 21,
 * Adoptium's apt repository (once added) Temurin. Debian 12 has none of them: there the preflight names what to install.
 */
const JAVA_PACKAGES = ['openjdk-21-jre-headless', 'temurin-21-jdk', 'openjdk-25-jre-headless', 'temurin-25-jdk'];

/** The hint in every message about a Keycloak tool: which parts need it, and the flags that leave them out. */
const KEYCLOAK_PARTS = 'the Keycloak keys and the provider cost run Keycloak; `--skip-keycloak --no-provider-cost` leave both out';

/** The flags that leave out Keycloak's CPU per request (wrk, /proc): bench/run.mjs's and bench/provider-cost.mjs's. */
const CPU_FLAGS = '`npm run bench -- --no-provider-cost`, `node bench/provider-cost.mjs --no-keycloak-cpu`';

/**
 * The parts of a bench run that need programs from outside node_modules. The builds, the rebuild and the dev
 * identity provider are Node's; the topology (nginx) and the browser always run.
 */
export interface BenchParts {
  /** the cross-site keys: the HTTPS topology, its certificates made with openssl (default true) */
  crossSite?: boolean;
  /** the sign-in keys on Keycloak: Java, and Maven to fetch Keycloak (default true) */
  keycloak?: boolean;
  /** the provider cost: Keycloak as above (default true) */
  providerCost?: boolean;
  /** the provider cost's CPU per request: `wrk`, /proc (default true) */
  keycloakCpu?: boolean;
}

/**
 * What a bench run of `parts` needs from outside node_modules, in the order it needs them.
 *
 * @param options `keycloakDir`: where the bench's Keycloak is unpacked (bench/.work/keycloak; Maven and unzip are needed
 *   only while it is not); `env`: where PATH, JAVA_HOME and CHROMIUM_PATH are read (default: this process's);
 *   `system`: the machine the install commands are for (default: this one)
 */
function benchToolRequirements({
  crossSite = true,
  keycloak = true,
  providerCost = true,
  keycloakCpu = true,
  keycloakDir,
  env = process.env,
  system = { debian: isDebian(), root: isRoot() },
}: BenchParts & {
  keycloakDir: string;
  env?: NodeJS.ProcessEnv;
  system?: { debian?: boolean; root?: boolean };
}): ToolRequirement[] {
  const path = env.PATH ?? '';
  const tools: ToolRequirement[] = [
    {
      name: 'nginx',
      neededFor: 'the bench serves the builds with it, as a deployment does',
      find: findNginx,
      debianPackages: ['nginx-light'],
      install: nginxInstallCommand(),
      orElse: 'set NGINX_BIN',
    },
    {
      name: 'Chromium',
      neededFor: "the bench measures its pages in Chromium's browser (not its headless shell, decisions/0104)",
      find: () => findChromium({ needs: 'browser', env })?.path ?? null,
      debianPackages: ['chromium', 'fonts-dejavu-core'],
      install: chromiumInstallCommand(),
      orElse: 'set CHROMIUM_PATH to a Chromium executable',
    },
  ];
  if (crossSite)
    tools.push({
      name: 'openssl',
      neededFor: 'the cross-site keys serve HTTPS with throwaway certificates made by it (`--skip-cross-site` leaves them out)',
      find: () => env.OPENSSL_BIN || onPath('openssl', path),
      debianPackages: ['openssl'],
      install: opensslInstallCommand(),
      orElse: 'set OPENSSL_BIN',
    });
  if (keycloak || providerCost) {
    let noJava: Error | null = null;
    tools.push({
      name: 'Java 21+',
      neededFor: KEYCLOAK_PARTS,
      find: () => {
        try {
          return findJava({ env, purpose: `The bench's Keycloak 26 (${KEYCLOAK_PARTS})` }).home;
        } catch (error) {
          noJava = error as Error;
          return null;
        }
      },
      debianPackages: [JAVA_PACKAGES],
      install: 'a Java 21 or newer',
      missing: () => noJava?.message ?? `Java 21 or newer not found: ${KEYCLOAK_PARTS}.`,
    });
    // Fetched with Maven and unpacked the first time, into the folder the bench's Keycloak runs from.
    if (!existsSync(join(keycloakDir, `keycloak-${KEYCLOAK_VERSION}`, 'bin/kc.sh'))) {
      tools.push({
        name: 'Maven',
        neededFor: `it fetches Keycloak ${KEYCLOAK_VERSION} the first time (${KEYCLOAK_PARTS})`,
        find: () => onPath('mvn', path),
        debianPackages: ['maven'],
        install: installCommand(['maven'], process.platform === 'darwin' ? 'brew install maven' : "your system's `maven` package", system),
      });
      tools.push({
        name: 'unzip',
        neededFor: `it unpacks Keycloak ${KEYCLOAK_VERSION} the first time (the JDK's \`jar\` does too; ${KEYCLOAK_PARTS})`,
        find: () => onPath('unzip', path) ?? onPath('jar', `${env.JAVA_HOME ? join(env.JAVA_HOME, 'bin') : ''}:${path}`),
        debianPackages: ['unzip'],
        install: installCommand(['unzip'], "your system's `unzip` package", system),
      });
    }
  }
  if (providerCost && keycloakCpu) {
    tools.push({
      name: 'wrk',
      neededFor: `the provider cost measures Keycloak's CPU per request under its load (${CPU_FLAGS} leave that out)`,
      find: () => onPath('wrk', path),
      debianPackages: ['wrk'],
      install: installCommand(['wrk'], process.platform === 'darwin' ? 'brew install wrk' : "your system's `wrk` package", system),
    });
    tools.push({
      name: '/proc',
      neededFor: "the provider cost reads Keycloak's CPU time there",
      find: () => (existsSync('/proc/self/stat') ? '/proc' : null),
      install: 'Linux',
      missing: () =>
        `The provider cost reads Keycloak's CPU time from /proc/<pid>/stat, which only Linux has: run the bench on Linux, or leave that out (${CPU_FLAGS}).`,
    });
  }
  return tools;
}

export { benchToolRequirements, JAVA_PACKAGES };
