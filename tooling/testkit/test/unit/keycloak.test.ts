import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chosenProvider, KeycloakRunnerError, obtainKeycloak, prepareRealmImport, startDevArgs } from '../../src/keycloak.cjs';

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
      '--http-port=18080',
      '--http-management-port=19000',
      '--health-enabled=true',
    ]);
  });

  test('on a host of its own: the public URL is the hostname, and the proxy headers are trusted', () => {
    expect(startDevArgs({ ...ports, behindProxy: { publicUrl: 'https://sso.acme.com:8443' } }).slice(5)).toEqual([
      '--hostname=https://sso.acme.com:8443',
      '--proxy-headers=xforwarded',
    ]);
  });

  test('under a path of the shell: the relative path too', () => {
    expect(startDevArgs({ ...ports, behindProxy: { publicUrl: 'https://portal.acme.com/auth', relativePath: '/auth' } }).slice(5)).toEqual([
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
