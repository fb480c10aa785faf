import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

import { checkAuthenticationFlows } from './authenticationFlows.js';
import { buildRealm } from './buildRealm.js';
import type { Realm } from './model.js';
import { RealmFileError } from './RealmFileError.js';
import { validateRealm } from './validate.js';

/** A loaded realm plus the warnings its file produced. */
export interface LoadedRealm {
  realm: Realm;
  warnings: string[];
}

/** Validates and builds a realm representation; `source` names it in errors and warnings. */
export function realmFromRepresentation(source: string, rep: unknown): LoadedRealm {
  const { realm: representation, warnings } = validateRealm(source, rep);
  const realm = buildRealm(source, representation);
  const maps = [realm.acrLoaMap, ...realm.clients.map((client) => client.acrLoaMap)];
  return { realm, warnings: [...warnings, ...checkAuthenticationFlows(source, representation, maps)] };
}

/** Reads a Keycloak realm file; a missing file or bad JSON throws a {@link RealmFileError} naming it. */
export async function loadRealmFile(path: string): Promise<LoadedRealm> {
  const source = basename(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new RealmFileError(path, '(file)', `cannot read: ${(cause as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new RealmFileError(source, '(file)', `not valid JSON: ${(cause as Error).message}`);
  }
  return realmFromRepresentation(source, json);
}
