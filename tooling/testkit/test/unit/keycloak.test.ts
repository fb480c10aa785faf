import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  adminPassword,
  BUILT_STAMP,
  buildKey,
  chosenProvider,
  copyBuiltDistribution,
  clusterNodeArgs,
  KEYCLOAK_SHA512,
  KEYCLOAK_VERSION,
  KeycloakRunnerError,
  obtainKeycloak,
  prepareRealmImport,
  startDevArgs,
} from '../../src/keycloak';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'testkit-keycloak-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the realm import', () => {
  // A Keycloak home as far as the import is concerned: data/h2 is its database.
  function database(home: string) {
    return join(home, 'data/h2/keycloakdb.mv.db');
  }
  function startOnce(home: string, realmFile: string) {
    const prepared = prepareRealmImport(home, realmFile);
    mkdirSync(join(home, 'data/h2'), { recursive: true });
    if (!existsSync(database(home))) writeFileSync(database(home), 'a database');
    prepared.markImported();
    return prepared.fresh;
  }

  test('puts the realm file where --import-realm reads it', () => {
    const realmFile = join(root, 'realm.json');
    writeFileSync(realmFile, '{"realm":"gatehouse"}');
    prepareRealmImport(join(root, 'kc'), realmFile);
    expect(readFileSync(join(root, 'kc/data/import/realm.json'), 'utf8')).toBe('{"realm":"gatehouse"}');
  });

  test('keeps the database while the realm file is unchanged, and starts a new one when it changes', () => {
    const home = join(root, 'kc');
    const realmFile = join(root, 'realm.json');
    writeFileSync(realmFile, '{"realm":"gatehouse","accessTokenLifespan":300}');
    expect(startOnce(home, realmFile)).toBe(true);
    writeFileSync(database(home), 'a database with an admin-console change');

    expect(startOnce(home, realmFile)).toBe(false);
    expect(readFileSync(database(home), 'utf8')).toBe('a database with an admin-console change');

    writeFileSync(realmFile, '{"realm":"gatehouse","accessTokenLifespan":600}');
    const prepared = prepareRealmImport(home, realmFile);
    expect(prepared.fresh).toBe(true);
    expect(existsSync(database(home))).toBe(false);
    expect(readFileSync(join(home, 'data/import/realm.json'), 'utf8')).toContain('600');
  });

  test('an import that never finished (no stamp) is made again', () => {
    const home = join(root, 'kc');
    const realmFile = join(root, 'realm.json');
    writeFileSync(realmFile, '{}');
    prepareRealmImport(home, realmFile); // started, but never ready: markImported() not called
    mkdirSync(join(home, 'data/h2'), { recursive: true });
    writeFileSync(database(home), 'half made');
    expect(prepareRealmImport(home, realmFile).fresh).toBe(true);
    expect(existsSync(database(home))).toBe(false);
  });
});

test('without Maven, fetching says to install it and how', async () => {
  const fetching = obtainKeycloak({ dir: root, env: { PATH: join(root, 'no-bin') }, log: () => {} });
  await expect(fetching).rejects.toBeInstanceOf(KeycloakRunnerError);
  await expect(fetching).rejects.toMatchObject({ code: 'KEYCLOAK_NO_MAVEN' });
  await expect(fetching).rejects.toThrow(
    /Maven is needed to fetch Keycloak 26\.7\.3 \(mvn is not on PATH\)\. Install it with `(sudo )?apt-get install -y maven`|`brew install maven`/,
  );
});

test('the provider of the browser suites: dev unless GATEHOUSE_IDP says keycloak; anything else is an error', () => {
  expect(chosenProvider({})).toBe('dev');
  expect(chosenProvider({ GATEHOUSE_IDP: 'keycloak' })).toBe('keycloak');
  expect(() => chosenProvider({ GATEHOUSE_IDP: 'kc' })).toThrow(
    'GATEHOUSE_IDP is "kc"; set it to "dev" (the embedded provider, the default) or "keycloak", or unset it.',
  );
});

describe('behind a TLS proxy', () => {
  const ports = { httpPort: 18080, managementPort: 19000 };

  test('on its own: no hostname, no proxy headers', () => {
    expect(startDevArgs(ports)).toEqual([
      'start-dev',
      '--import-realm',
      '--http-host=127.0.0.1',
      '--http-port=18080',
      '--http-management-host=127.0.0.1',
      '--http-management-port=19000',
      '--health-enabled=true',
    ]);
  });

  test('on a host of its own: the public URL is the hostname, and the proxy headers are trusted', () => {
    expect(startDevArgs({ ...ports, behindProxy: { publicUrl: 'https://sso.acme.com:8443' } }).slice(7)).toEqual([
      '--hostname=https://sso.acme.com:8443',
      '--proxy-headers=xforwarded',
    ]);
  });

  test('under a path of the shell: the relative path too', () => {
    expect(startDevArgs({ ...ports, behindProxy: { publicUrl: 'https://portal.acme.com/auth', relativePath: '/auth' } }).slice(7)).toEqual([
      '--hostname=https://portal.acme.com/auth',
      '--proxy-headers=xforwarded',
      '--http-relative-path=/auth',
    ]);
  });

  test.each([
    [{ publicUrl: 'sso.acme.com' }, /is not a URL\. Give the address browsers use, e\.g\. "https:\/\/sso\.acme\.com"/],
    [{ publicUrl: 'http://sso.acme.com' }, /must be an https URL without query, fragment or trailing slash/],
    [{ publicUrl: 'https://sso.acme.com/' }, /must be an https URL without query, fragment or trailing slash/],
    [{ publicUrl: 'https://portal.acme.com/auth', relativePath: 'auth' }, /relativePath "auth" is not a path\. Give e\.g\. "\/auth"/],
    [{ publicUrl: 'https://portal.acme.com/sso', relativePath: '/auth' }, /does not end with relativePath "\/auth"/],
  ])('refuses %j with a message that says what to give', (behindProxy, message) => {
    const start = () => startDevArgs({ ...ports, behindProxy });
    expect(start).toThrow(KeycloakRunnerError);
    expect(start).toThrow(message);
  });
});

describe('a cluster node (e2e/cluster, decisions/0095)', () => {
  const node = {
    publicUrl: 'http://localhost:18090',
    database: { url: 'jdbc:postgresql://127.0.0.1:15432/keycloak', username: 'keycloak' },
    jgroupsPort: 7801,
    importRealm: true,
  };

  test('production mode on the shared PostgreSQL, the distributed caches on loopback, behind the load balancer', () => {
    expect(clusterNodeArgs({ httpPort: 18081, managementPort: 19001, clusterNode: node })).toEqual([
      'start',
      '--import-realm',
      '--db=postgres',
      '--db-url=jdbc:postgresql://127.0.0.1:15432/keycloak',
      '--db-username=keycloak',
      '--cache=ispn',
      '--cache-embedded-network-bind-address=127.0.0.1',
      '--cache-embedded-network-bind-port=7801',
      '--http-enabled=true',
      '--http-host=127.0.0.1',
      '--http-port=18081',
      '--http-management-host=127.0.0.1',
      '--http-management-port=19001',
      '--health-enabled=true',
      '--hostname=http://localhost:18090',
      '--proxy-headers=xforwarded',
    ]);
    expect(clusterNodeArgs({ httpPort: 18081, managementPort: 19001, clusterNode: { ...node, importRealm: false } })).not.toContain(
      '--import-realm',
    );
  });

  test.each([
    [{ publicUrl: 'http://sso.acme.com' }, /must be the load balancer's https URL \(plain http on localhost only\)/],
    [{ publicUrl: 'https://sso.acme.com/auth' }, /without path or trailing slash/],
    [{ jgroupsPort: 40000 }, /must be 1024–15535: JGroups' failure detection listens 50,000 above it/],
  ])('refuses %j with a message that says what to give', (change, message) => {
    const start = () => clusterNodeArgs({ httpPort: 18081, managementPort: 19001, clusterNode: { ...node, ...change } });
    expect(start).toThrow(KeycloakRunnerError);
    expect(start).toThrow(message);
  });
});

// Security round three: the administrator's password, and the download checked before it is unpacked or run.
describe("the administrator's password", () => {
  test('is generated once, 0600, and read back the same', () => {
    const file = join(root, 'kc/admin-password');
    const first = adminPassword(file);
    expect(first.generated).toBe(true);
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(adminPassword(file)).toEqual({ ...first, generated: false });
  });

  test('a password file others may read is refused', () => {
    const file = join(root, 'admin-password');
    adminPassword(file);
    chmodSync(file, 0o644);
    expect(() => adminPassword(file)).toThrow(/is readable by others \(mode 644\): run `chmod 600 /);
  });

  test('a new password means a new database (Keycloak creates its bootstrap administrator only in one)', () => {
    const home = join(root, 'kc');
    const realmFile = join(root, 'realm.json');
    writeFileSync(realmFile, '{}');
    prepareRealmImport(home, realmFile, 'first-password-0123').markImported();
    mkdirSync(join(home, 'data/h2'), { recursive: true });
    expect(prepareRealmImport(home, realmFile, 'first-password-0123').fresh).toBe(false);
    expect(prepareRealmImport(home, realmFile, 'other-password-0123').fresh).toBe(true);
  });
});

describe('the download', () => {
  /** A zip of `files`, stored without compression (what `unzip` and `jar` read). */
  function zipOf(files: Record<string, string>): Buffer {
    const locals: Buffer[] = [];
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const [name, text] of Object.entries(files)) {
      const data = Buffer.from(text);
      const nameBytes = Buffer.from(name);
      const crc = crc32(data);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(nameBytes.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(0x031e, 4); // made by Unix: the mode below counts
      central.writeUInt16LE(20, 6);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(data.length, 24);
      central.writeUInt16LE(nameBytes.length, 28);
      central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
      central.writeUInt32LE(offset, 42);
      locals.push(local, nameBytes, data);
      centrals.push(central, nameBytes);
      offset += 30 + nameBytes.length + data.length;
    }
    const directory = Buffer.concat(centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Object.keys(files).length, 8);
    end.writeUInt16LE(Object.keys(files).length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    return Buffer.concat([...locals, directory, end]);
  }

  /** A Maven that "downloads" `zip` (a mirror serving whatever it likes): `mvn … -DoutputDirectory=<dir>` copies it there. */
  function mavenServing(zip: Buffer): NodeJS.ProcessEnv {
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(root, 'served.zip'), zip);
    writeFileSync(
      join(bin, 'mvn'),
      `#!/bin/sh\nfor arg; do case "$arg" in -DoutputDirectory=*) cp "${join(root, 'served.zip')}" "\${arg#-DoutputDirectory=}/keycloak-quarkus-dist-26.7.3.zip";; esac; done\n`,
      { mode: 0o755 },
    );
    return { PATH: `${bin}:${process.env.PATH}` };
  }

  const distribution = zipOf({ 'keycloak-26.7.3/bin/kc.sh': '#!/bin/sh\necho "the real kc.sh"\n', 'keycloak-26.7.3/lib/a.jar': 'jar' });
  const digest = createHash('sha512').update(distribution).digest('hex');

  test('26.7.3 is pinned to the SHA-512 Maven Central publishes', () => {
    expect(KEYCLOAK_SHA512['26.7.3']).toBe(
      '15c764765576eef267cf15cc5225a5826b5394a25a83d9bfa5b8544e4bbba690cb743c9d384200b93bb71ee4c4a328e1dd8c0a00f822fd3e6e154f14b1e47216',
    );
  });

  test('a zip whose SHA-512 differs from the pinned one is refused, and nothing of it is unpacked', async () => {
    const env = mavenServing(zipOf({ 'keycloak-26.7.3/bin/kc.sh': '#!/bin/sh\necho "a tampered kc.sh"\n' }));
    const fetching = obtainKeycloak({ dir: join(root, 'kc'), env, log: () => {}, sha512: digest });
    await expect(fetching).rejects.toMatchObject({ code: 'KEYCLOAK_CHECKSUM_MISMATCH' });
    await expect(fetching).rejects.toThrow(
      /is not the published one: its SHA-512 is [0-9a-f]{128}, expected [0-9a-f]{128}\. Nothing of it was unpacked or run/,
    );
    expect(existsSync(join(root, 'kc/keycloak-26.7.3'))).toBe(false);
  });

  test('the verified zip is unpacked, its scripts runnable; a home without the verified digest is fetched again', async () => {
    const env = mavenServing(distribution);
    const home = await obtainKeycloak({ dir: join(root, 'kc'), env, log: () => {}, sha512: digest });
    expect(readFileSync(join(home, 'bin/kc.sh'), 'utf8')).toContain('the real kc.sh');
    expect(statSync(join(home, 'bin/kc.sh')).mode & 0o111).not.toBe(0);

    writeFileSync(join(home, 'bin/kc.sh'), '#!/bin/sh\necho "put there by someone"\n');
    rmSync(join(home, '.gatehouse-verified-sha512'));
    const logged: string[] = [];
    await obtainKeycloak({ dir: join(root, 'kc'), env, log: (line) => logged.push(line), sha512: digest });
    expect(readFileSync(join(home, 'bin/kc.sh'), 'utf8')).toContain('the real kc.sh');
    expect(logged[0]).toMatch(/was not unpacked from a verified download: fetching Keycloak 26\.7\.3 again/);
  });
});

describe('a distribution built once, shared by starts with the same build options (StartOptions.buildFrom)', () => {
  /** A started distribution in `dir`: a jar of its build, its database, and the note of what it was built for. */
  function started(dir: string, key: string | null) {
    const home = join(dir, `keycloak-${KEYCLOAK_VERSION}`);
    mkdirSync(join(home, 'lib/quarkus'), { recursive: true });
    mkdirSync(join(home, 'data/h2'), { recursive: true });
    writeFileSync(join(home, 'lib/quarkus/generated-bytecode.jar'), `built in ${dir}`);
    writeFileSync(join(home, 'data/h2/keycloakdb.mv.db'), `the database of ${dir}`);
    if (key) writeFileSync(join(home, BUILT_STAMP), `${key}\n`);
    return home;
  }
  const proxied = buildKey({ behindProxy: { publicUrl: 'https://sso.example.test', relativePath: '/auth' } });

  test('a start behind a proxy builds as the dev start does, unless under a path; a cluster node builds for its own', () => {
    expect(buildKey({ behindProxy: { publicUrl: 'https://sso.example.test' } })).toBe(buildKey({}));
    expect(proxied).not.toBe(buildKey({}));
    const node = {
      publicUrl: 'http://localhost:1',
      database: { url: 'jdbc:postgresql://x/y', username: 'u' },
      jgroupsPort: 7800,
      importRealm: false,
    };
    expect(buildKey({ clusterNode: node })).not.toBe(buildKey({}));
  });

  test('a new dir gets a copy of a distribution built for the same options, without its data', () => {
    started(join(root, 'from'), buildKey({}));
    copyBuiltDistribution(join(root, 'from'), join(root, 'to'), buildKey({}));
    const copy = join(root, 'to', `keycloak-${KEYCLOAK_VERSION}`);
    expect(readFileSync(join(copy, 'lib/quarkus/generated-bytecode.jar'), 'utf8')).toBe(`built in ${join(root, 'from')}`);
    expect(existsSync(join(copy, 'data'))).toBe(false);
  });

  test('nothing is copied from one built for other options, never started, or over one built for these', () => {
    started(join(root, 'other'), proxied);
    started(join(root, 'unstarted'), null);
    copyBuiltDistribution(join(root, 'other'), join(root, 'a'), buildKey({}));
    copyBuiltDistribution(join(root, 'unstarted'), join(root, 'b'), buildKey({}));
    expect([existsSync(join(root, 'a')), existsSync(join(root, 'b'))]).toEqual([false, false]);
    started(join(root, 'from'), buildKey({}));
    const own = started(join(root, 'own'), buildKey({}));
    copyBuiltDistribution(join(root, 'from'), join(root, 'own'), buildKey({}));
    expect(readFileSync(join(own, 'data/h2/keycloakdb.mv.db'), 'utf8')).toBe(`the database of ${join(root, 'own')}`);
  });
});
