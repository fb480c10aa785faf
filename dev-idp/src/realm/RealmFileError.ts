/**
 * A realm file (or realm representation) the dev IdP cannot use. `source` names the file
 * (or "admin request"), `field` the JSON path of the offending field, e.g. `clients[0].clientId`.
 */
export class RealmFileError extends Error {
  readonly source: string;
  readonly field: string;

  constructor(source: string, field: string, problem: string) {
    super(`${source}: ${field}: ${problem}`);
    this.name = 'RealmFileError';
    this.source = source;
    this.field = field;
  }
}
