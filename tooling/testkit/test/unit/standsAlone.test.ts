import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The repository stands alone: no file points into the team's design notes, which were kept in a folder beside the
// checkout (a folder named shared beside it) and are not part of it. What they said that still holds is written where it is needed.
const ROOT = resolve(__dirname, '../../../..');
const OUTSIDE = /\.\.\/shared\//;

test('no tracked file points into the shared folder beside the checkout, outside the repository', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  expect(files.length).toBeGreaterThan(500); // the walk sees the repository
  const pointing = files.filter((file) => {
    if (/\.(png|ico|jpg|woff2?|zip|gz)$/.test(file)) return false;
    return OUTSIDE.test(readFileSync(join(ROOT, file), 'utf8'));
  });
  expect(pointing).toEqual([]);
});
