#!/usr/bin/env node
// The packed contract check validates config.json files with the shell's generated validator. In the repository
// it imports the shell's copy (shell/src/config/); a published package has no shell beside it, so the build
// copies the validator into dist/shell-config/ and points the compiled imports there.

import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHELL_CONFIG = join(PACKAGE, '..', '..', 'shell', 'src', 'config');
const DIST = join(PACKAGE, 'dist');
const FILES = ['schema.generated.cjs', 'schema.generated.d.cts', 'schemaProblems.cjs', 'schemaProblems.d.cts'];
const SOURCE_PATH = '../../../shell/src/config/';

mkdirSync(join(DIST, 'shell-config'), { recursive: true });
for (const file of FILES) copyFileSync(join(SHELL_CONFIG, file), join(DIST, 'shell-config', file));

let rewritten = 0;
/** @param {string} dir */
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== 'shell-config') walk(file);
    } else if (/\.(js|d\.ts)$/.test(name)) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(SOURCE_PATH)) continue;
      // dist/src/x.js → dist/shell-config/
      writeFileSync(file, text.replaceAll(SOURCE_PATH, '../shell-config/'));
      rewritten += 1;
    }
  }
};
walk(join(DIST, 'src'));
if (rewritten === 0) throw new Error(`no compiled file imports ${SOURCE_PATH}: the copy in dist/shell-config would be unused`);
