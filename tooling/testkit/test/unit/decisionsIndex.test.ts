import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// decisions/README.md is the index of the decision records: every record once, under its own title, with its status
// (Accepted, Superseded by NNNN, Amended by NNNN). These tests hold it to the folder, so a new record, a changed title
// or a new "Superseded by:" / "Amended by:" line in a record cannot leave the index behind, nor the other way round.
const DECISIONS = resolve(__dirname, '../../../../decisions');
const INDEX = 'README.md';
const RECORD_FILE = /^(\d{4})-.+\.md$/;

type Kind = 'superseded' | 'amended';

interface Row {
  line: number;
  number: string;
  title: string;
  file: string;
  status: string;
}

function recordFiles(): string[] {
  return readdirSync(DECISIONS)
    .filter((name) => RECORD_FILE.test(name))
    .sort();
}

function read(name: string): string {
  return readFileSync(join(DECISIONS, name), 'utf8');
}

/** The index's rows: `| 0001 | [title](0001-….md) | status |`. */
function indexRows(): Row[] {
  return read(INDEX)
    .split('\n')
    .flatMap((text, at) => {
      const row = /^\| (\d{4}) \| \[(.+?)\]\(([^)\s]+)\) \| (.+) \|$/.exec(text);
      return row ? [{ line: at + 1, number: row[1]!, title: row[2]!, file: row[3]!, status: row[4]! }] : [];
    });
}

/** A record's title: its first line, `# 0001 — Title` (a few older records write `# 0024: title`). */
function titleOf(file: string): string | null {
  const heading = /^# (\d{4})(?:\s*—\s*|:\s*)(.+)$/.exec(read(file).split('\n', 1)[0] ?? '');
  return heading && heading[1] === file.slice(0, 4) ? heading[2]!.trim() : null;
}

/** The numbers of the records linked as `[NNNN](NNNN-….md)` in a piece of text. */
function linkedRecords(text: string): string[] {
  return [...text.matchAll(/\[(\d{4})\]\((\d{4})-[^)\s]*\.md\)/g)].map((link) => link[2]!);
}

function kindOf(text: string): Kind | null {
  if (/superseded\b.*\bby\b/i.test(text)) return 'superseded';
  if (/amended by/i.test(text)) return 'amended';
  return null;
}

/** What the index's status says supersedes or amends a record: `Superseded in part by [0017](…); amended by […]`. */
function statusLinks(status: string): Array<{ kind: Kind; by: string }> {
  return status.split(';').flatMap((clause) => {
    const kind = kindOf(clause);
    return kind ? linkedRecords(clause).map((by) => ({ kind, by })) : [];
  });
}

/** What a record's own header (everything before its first `## `) says supersedes or amends it, line by line. */
function headerLinks(file: string): Array<{ kind: Kind; by: string }> {
  const lines = read(file).split('\n');
  const end = lines.findIndex((line) => line.startsWith('## '));
  return lines.slice(0, end === -1 ? lines.length : end).flatMap((line) => {
    const kind = kindOf(line);
    return kind ? linkedRecords(line).map((by) => ({ kind, by })) : [];
  });
}

const describeLink = ({ kind, by }: { kind: Kind; by: string }) => `${kind === 'superseded' ? 'Superseded' : 'Amended'} by ${by}`;

test('every record of decisions/ has one row in the index, with its number and its own title', () => {
  const rows = indexRows();
  const problems: string[] = [];
  for (const file of recordFiles()) {
    const found = rows.filter((row) => row.file === file);
    if (found.length === 0) problems.push(`${file}: not in ${INDEX}`);
    if (found.length > 1)
      problems.push(`${file}: ${found.length} rows in ${INDEX} (lines ${found.map((row) => row.line).join(', ')}), not 1`);
    const title = titleOf(file);
    if (title === null) problems.push(`${file}: its first line is not "# ${file.slice(0, 4)} — <title>"`);
    for (const row of found) {
      if (row.number !== file.slice(0, 4)) problems.push(`${INDEX}:${row.line}: number ${row.number} for ${file}`);
      if (title !== null && row.title !== title) problems.push(`${INDEX}:${row.line}: title "${row.title}", but ${file} says "${title}"`);
    }
  }
  for (const row of rows) {
    if (!RECORD_FILE.test(row.file)) problems.push(`${INDEX}:${row.line}: ${row.file} is not a record's file name`);
  }
  expect(problems).toEqual([]);
});

test('every link in the index resolves to a file of the repository', () => {
  const problems: string[] = [];
  read(INDEX)
    .split('\n')
    .forEach((text, at) => {
      // code spans show link syntax without being links (`Superseded by: [NNNN](…)`)
      for (const [, label, target] of text.replace(/`[^`]*`/g, '').matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target!) || target!.startsWith('#')) continue; // another site, or a heading here
        const path = target!.split('#')[0]!;
        if (!existsSync(join(DECISIONS, path))) problems.push(`${INDEX}:${at + 1}: [${label}](${target}) — no such file`);
        else if (/^\d{4}$/.test(label!) && !path.startsWith(`${label}-`))
          problems.push(`${INDEX}:${at + 1}: [${label}](${target}) — another record`);
      }
    });
  expect(problems).toEqual([]);
});

test('each "Superseded by" and "Amended by" of the index is a line under the record\'s own Status', () => {
  const problems: string[] = [];
  for (const row of indexRows()) {
    const own = headerLinks(row.file);
    for (const link of statusLinks(row.status)) {
      if (!own.some((line) => line.kind === link.kind && line.by === link.by))
        problems.push(`${row.file}: the index says "${describeLink(link)}", the record's header has no such line linking ${link.by}`);
    }
  }
  expect(problems).toEqual([]);
});

test('each "Superseded by" and "Amended by" line of a record is in its status in the index', () => {
  const rows = indexRows();
  const problems: string[] = [];
  for (const file of recordFiles()) {
    const row = rows.find((candidate) => candidate.file === file);
    if (!row) continue; // the first test names it
    const listed = statusLinks(row.status);
    for (const link of headerLinks(file)) {
      if (!listed.some((entry) => entry.kind === link.kind && entry.by === link.by))
        problems.push(`${INDEX}:${row.line}: ${file} says "${describeLink(link)}", its status in the index does not`);
    }
  }
  expect(problems).toEqual([]);
});
