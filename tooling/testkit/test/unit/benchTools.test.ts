import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchToolRequirements } from '../../src/benchTools';
import { KEYCLOAK_VERSION } from '../../src/keycloak';
import { aptGetInstaller, ensureTools, onPath } from '../../src/systemTools';

// What `npm run bench`'s preflight (scripts/preflight.mjs bench) does with the programs the bench needs later: real
// folders as PATH, and for the installs a fake apt-get and apt-cache that record their calls and "install" a package
// by putting an executable of its program on that PATH.
let root: string;
let bin: string;
let log: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'testkit-bench-tools-'));
  bin = join(root, 'bin');
  log = join(root, 'apt.log');
  mkdirSync(bin);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function executable(file: string, text = '#!/bin/sh\n'): string {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** Keycloak as the bench leaves it unpacked (bench/.work/keycloak/keycloak-<version>/bin/kc.sh): Maven is not needed. */
function unpackedKeycloak(): string {
  const dir = join(root, 'keycloak');
  mkdirSync(join(dir, `keycloak-${KEYCLOAK_VERSION}`, 'bin'), { recursive: true });
  executable(join(dir, `keycloak-${KEYCLOAK_VERSION}`, 'bin/kc.sh'));
  return dir;
}

/** apt-get and apt-cache on `bin`: apt-cache has a candidate for each package of `available` (default: every one). */
function fakeApt({ available, failUpdate = false }: { available?: string[]; failUpdate?: boolean } = {}) {
  const programOf = `case "$p" in maven) echo mvn ;; *) echo "$p" ;; esac`;
  executable(
    join(bin, 'apt-get'),
    `#!/bin/sh
PATH="$PATH:/usr/bin:/bin"
echo "apt-get $*" >> "${log}"
[ "$1" = update ] && exit ${failUpdate ? 1 : 0}
shift
for p in "$@"; do
  case "$p" in -*) continue ;; esac
  program="$(${programOf})"
  printf '#!/bin/sh\\n' > "${bin}/$program" && chmod 755 "${bin}/$program"
done
`,
  );
  executable(
    join(bin, 'apt-cache'),
    `#!/bin/sh
echo "apt-cache $*" >> "${log}"
echo "$2:"
echo "  Installed: (none)"
case " ${available ? available.join(' ') : '$2'} " in
  *" $2 "*) echo "  Candidate: 1.0-1" ;;
  *) echo "  Candidate: (none)" ;;
esac
`,
  );
  return aptGetInstaller({ env: { PATH: bin } });
}

const aptCalls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
const names = (parts: Parameters<typeof benchToolRequirements>[0]) => benchToolRequirements(parts).map((tool) => tool.name);

test('PATH without wrk, not root: the check fails naming `sudo apt-get install -y wrk`, and installs nothing', () => {
  const apt = fakeApt();
  const { found, problems } = ensureTools(
    benchToolRequirements({ keycloakDir: unpackedKeycloak(), env: { PATH: bin }, system: { debian: true, root: false } }),
    { canInstall: false, apt },
  );
  expect(found.wrk).toBeUndefined();
  expect(problems).toContain(
    "wrk not found: the provider cost measures Keycloak's CPU per request under its load (`npm run bench -- --no-provider-cost`, `node bench/provider-cost.mjs --no-keycloak-cpu` leave that out). Install it with `sudo apt-get install -y wrk`.",
  );
  expect(aptCalls()).toEqual([]);
  expect(onPath('wrk', bin)).toBeNull();
});

test('with wrk on PATH nothing is said about it', () => {
  const wrk = executable(join(bin, 'wrk'));
  const { found, problems } = ensureTools(
    benchToolRequirements({ keycloakDir: unpackedKeycloak(), env: { PATH: bin }, system: { debian: true, root: false } }),
    { canInstall: false },
  );
  expect(found.wrk).toBe(wrk);
  expect(problems.filter((problem) => problem.includes('wrk'))).toEqual([]);
});

test('the flags leave out what their parts need, and Maven and unzip are needed only until Keycloak is unpacked', () => {
  const keycloakDir = join(root, 'no-keycloak-yet');
  expect(names({ keycloakDir })).toEqual(['nginx', 'Chromium', 'openssl', 'Java 21+', 'Maven', 'unzip', 'wrk', '/proc']);
  expect(names({ keycloakDir: unpackedKeycloak() })).toEqual(['nginx', 'Chromium', 'openssl', 'Java 21+', 'wrk', '/proc']);
  // --no-provider-cost: the Keycloak keys still run Keycloak
  expect(names({ keycloakDir, providerCost: false })).toEqual(['nginx', 'Chromium', 'openssl', 'Java 21+', 'Maven', 'unzip']);
  // --skip-keycloak: the provider cost starts its own
  expect(names({ keycloakDir, keycloak: false })).toEqual(['nginx', 'Chromium', 'openssl', 'Java 21+', 'Maven', 'unzip', 'wrk', '/proc']);
  expect(names({ keycloakDir, keycloak: false, providerCost: false, crossSite: false })).toEqual(['nginx', 'Chromium']);
  // bench/provider-cost.mjs --no-keycloak-cpu
  expect(names({ keycloakDir, keycloak: false, crossSite: false, keycloakCpu: false })).toEqual([
    'nginx',
    'Chromium',
    'Java 21+',
    'Maven',
    'unzip',
  ]);
});

test('as root on Debian: one apt-get update, one apt-get install of what is missing, then each is found', () => {
  const apt = fakeApt();
  const said: string[] = [];
  const tools = benchToolRequirements({ keycloakDir: join(root, 'no-keycloak-yet'), env: { PATH: bin } }).filter((tool) =>
    ['Maven', 'unzip', 'wrk'].includes(tool.name),
  );
  const result = ensureTools(tools, { canInstall: true, apt, log: (message) => said.push(message) });
  expect(aptCalls()).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends maven unzip wrk']);
  expect(result).toEqual({
    found: { Maven: join(bin, 'mvn'), unzip: join(bin, 'unzip'), wrk: join(bin, 'wrk') },
    problems: [],
    installed: ['maven', 'unzip', 'wrk'],
  });
  expect(said).toEqual(['Maven, unzip, wrk missing; installing with apt-get (maven unzip wrk) …']);
});

test('of alternatives the first apt-get has is installed; with none of them, nothing is, and the message says what to do', () => {
  const tool = {
    name: 'Java 21+',
    neededFor: 'Keycloak',
    find: () => onPath('java', bin),
    debianPackages: [['openjdk-21-jre-headless', 'temurin-21-jdk']],
    install: 'a Java 21 or newer',
    missing: () => 'Keycloak needs Java 21 or newer: install Temurin 21.',
  };
  const withTemurin = fakeApt({ available: ['temurin-21-jdk'] });
  // the fake installs a package's program under the package's name
  const temurin = { ...tool, find: () => onPath('temurin-21-jdk', bin) };
  expect(ensureTools([temurin], { canInstall: true, apt: withTemurin })).toMatchObject({ problems: [], installed: ['temurin-21-jdk'] });
  expect(aptCalls()).toEqual([
    'apt-get update -qq',
    'apt-cache policy openjdk-21-jre-headless',
    'apt-cache policy temurin-21-jdk',
    'apt-get install -y -qq --no-install-recommends temurin-21-jdk',
  ]);

  rmSync(log);
  const withNone = fakeApt({ available: [] });
  expect(ensureTools([tool], { canInstall: true, apt: withNone })).toEqual({
    found: {},
    problems: ['Keycloak needs Java 21 or newer: install Temurin 21.'],
    installed: [],
  });
  expect(aptCalls().filter((call) => call.startsWith('apt-get install'))).toEqual([]);
});

test('a failing apt-get update is the one problem, named', () => {
  const apt = fakeApt({ failUpdate: true });
  const tools = benchToolRequirements({ keycloakDir: unpackedKeycloak(), env: { PATH: bin } }).filter((tool) => tool.name === 'wrk');
  expect(ensureTools(tools, { canInstall: true, apt })).toEqual({
    found: {},
    problems: ['apt-get update -qq failed (its errors are above).'],
    installed: [],
  });
  expect(aptCalls()).toEqual(['apt-get update -qq']);
});

test('a tool whose override names no file is reported as it says, and not installed', () => {
  const apt = fakeApt();
  const tool = {
    name: 'nginx',
    neededFor: 'serving',
    find: () => {
      throw new Error('NGINX_BIN is /nowhere/nginx, which is not an executable file. Point it at nginx, or unset it.');
    },
    debianPackages: ['nginx-light'],
    install: 'apt-get install -y nginx-light',
  };
  expect(ensureTools([tool], { canInstall: true, apt }).problems).toEqual([
    'NGINX_BIN is /nowhere/nginx, which is not an executable file. Point it at nginx, or unset it.',
  ]);
  expect(aptCalls()).toEqual([]);
});
