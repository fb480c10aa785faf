/**
 * @jest-environment node
 */
// The public API pinned by signatures: API Extractor's report of each entry point of package.json's `exports` and of
// the shell's federated `./auth` module, against the committed one (src/test-support/apiReport.ts). A change to an
// exported type, a function's signature, a hook, a class member or a constant's type fails here with the diff; it
// is accepted on purpose by writing the reports anew and committing them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_ENTRIES, apiReports, UPDATE_COMMAND, type ApiReportResult } from './test-support/apiReport';

let results: ApiReportResult[] = [];
beforeAll(() => {
  results = apiReports();
}, 60_000);

test('every code entry point of package.json exports has a report', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    exports: Record<string, Record<string, string> | string>;
  };
  const sources = Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'string' ? [] : [`auth-lib/${target['@gatehouse/source']!.slice(2)}`],
  );
  expect(sources.sort()).toEqual(
    API_ENTRIES.map((entry) => entry.source)
      .filter((source) => source.startsWith('auth-lib/'))
      .sort(),
  );
});

test.each(API_ENTRIES.map((entry) => [entry.name, entry] as const))('the API of %s matches its committed report', (_name, entry) => {
  const result = results.find((candidate) => candidate.entry === entry);
  expect(result).toBeDefined();
  if (result!.ok) return;
  throw new Error(
    `The public API of ${entry.name} (${entry.source}) no longer matches ${entry.report}.\n` +
      `If the change is on purpose, run \`${UPDATE_COMMAND}\` and commit the report with it, for review; ` +
      `if not, undo it. API Extractor:\n\n${result!.messages.join('\n\n')}`,
  );
});
