// What a Keycloak home is given before it starts: the realm file to import (the demo realm, or a cluster's), the
// login theme; and what the realm file says about step-up.

import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { REALM_FILE, REPO_ROOT } from './common';

/**
 * Puts the realm file where `--import-realm` reads it. Keycloak skips a realm that already exists on import,
 * and creates the bootstrap administrator only in a new database, so when the file or the administrator's
 * password differs from the one of the last import the database is deleted and made again: a fresh import,
 * the bootstrap administrator recreated with `adminPassword`. Returns whether that happened.
 */
export function prepareRealmImport(home: string, realmFile: string, adminPassword: string = '') {
  const realm = readFileSync(realmFile);
  const hash = createHash('sha256').update(realm);
  if (adminPassword) hash.update('\0admin password\0').update(adminPassword);
  const digest = hash.digest('hex');
  const stamp = join(home, 'data/imported-realm.sha256');
  const database = join(home, 'data/h2');
  const fresh = !existsSync(database) || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== digest;
  if (fresh) rmSync(database, { recursive: true, force: true });
  const imports = join(home, 'data/import');
  rmSync(imports, { recursive: true, force: true });
  mkdirSync(imports, { recursive: true });
  copyFileSync(realmFile, join(imports, 'realm.json'));
  return { fresh, markImported: () => writeFileSync(stamp, `${digest}\n`) };
}

/**
 * A cluster node's realm import: `realmFile` where `--import-realm` reads it, or nothing (null: another node
 * imports). The database is the cluster's, so there is no stamp to keep.
 */
export function prepareClusterImport(home: string, realmFile: string | null) {
  const imports = join(home, 'data/import');
  rmSync(imports, { recursive: true, force: true });
  if (realmFile) {
    mkdirSync(imports, { recursive: true });
    copyFileSync(realmFile, join(imports, 'realm.json'));
  }
  return { fresh: realmFile !== null, markImported: () => {} };
}

/**
 * Puts the realm's login theme (deploy/keycloak/themes/<name>, the realm file's `loginTheme`) where Keycloak reads
 * themes, `<home>/themes`, replacing an earlier copy (decisions/0071). Keycloak in dev mode reads it per request.
 */
export function prepareThemes(home: string) {
  const themes = join(REPO_ROOT, 'deploy/keycloak/themes');
  if (!existsSync(themes)) return;
  for (const name of readdirSync(themes)) {
    rmSync(join(home, 'themes', name), { recursive: true, force: true });
    cpSync(join(themes, name), join(home, 'themes', name), { recursive: true });
  }
}

/**
 * The demo realm file's step-up, as it is, for a test realm made through the admin API: the levels
 * (`acr.loa.map`: a password is silver, step-up gold) and the browser flow that asks for them (Keycloak's default
 * flow answers `acr_values=gold` with silver; the dev provider reads the same fields).
 */
export function stepUpOfTheRealmFile(): Pick<
  import('@keycloak/keycloak-admin-client/lib/defs/realmRepresentation').default,
  'attributes' | 'browserFlow' | 'authenticationFlows' | 'authenticatorConfig'
> {
  const { attributes, browserFlow, authenticationFlows, authenticatorConfig } = JSON.parse(readFileSync(REALM_FILE, 'utf8'));
  return { attributes, browserFlow, authenticationFlows, authenticatorConfig };
}
