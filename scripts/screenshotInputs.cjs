// What the README's screenshots (docs/screenshot-*.png) are made from, and the manifest beside them that records it
// (decisions/0115). `npm run screenshots` (e2e/screenshot/) renders them over the running system and then writes
// docs/screenshots.json: a SHA-256 of each picture and of each source file that decides what the pictures show. The
// shell's unit test (shell/test/unit/screenshots.test.ts, in `npm test`) makes the same list again and fails,
// naming the files and `npm run screenshots`, when one of them changed since the pictures were made.
//
// The inputs are what is drawn: the shell's frame and header, the slot and its failure, the Profile remote's page and
// its API card, the stylesheet every app shares, and the script that shoots (which pages, at which sizes). Not the
// session's logic, the provider's realm or the demo API: they change often for reasons no picture shows (decisions/0115).
'use strict';

const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');

/** The manifest, from the repository's root. */
const MANIFEST = 'docs/screenshots.json';

/** The pictures `npm run screenshots` makes, from the repository's root. */
const SCREENSHOTS_PATTERN = /^screenshot-.+\.png$/;

const NOT_A_TEST = /^(?!.*\.(test|spec)\.tsx?$)/;

/**
 * The source files whose content decides what the screenshots show: a folder each (not below it), with the names
 * in it that count and why.
 * @type {ReadonlyArray<{ dir: string, names: RegExp, why: string }>}
 */
const INPUTS = [
  { dir: 'shell/src', names: /^ShellApp\.tsx$/, why: "the shell's routes and the frame of every page" },
  { dir: 'shell/src/layout', names: /\.tsx$/, why: 'the header, the navigation, the banners and the details' },
  { dir: 'shell/src/slots', names: /(\.tsx|^visitorMessages\.ts)$/, why: "a remote's slot and its failure, in words" },
  { dir: 'shell/src/routing', names: /^RemoteRoute\.tsx$/, why: "the route around a remote's slot" },
  { dir: 'remotes/profile/src', names: /^(?!bootstrap\.)(.+\.tsx|productRoles\.ts)$/, why: 'the Profile page and its roles' },
  { dir: 'tooling/remote-kit/src', names: /\.tsx$/, why: "the Profile page's API card (every demo remote's, @gatehouse/remote-kit)" },
  { dir: 'tooling/federation/assets', names: /\.css$/, why: 'the stylesheet every app shares' },
  { dir: 'e2e/screenshot', names: /\.screenshot\.ts$/, why: 'which pages are shot, in which state, at which sizes' },
];

/** @param {string} file from the repository's root; a source's line ends count as LF (a checkout may make them CRLF) */
const sha256 = (file) => {
  const content = readFileSync(join(ROOT, file));
  return createHash('sha256')
    .update(file.endsWith('.png') ? content : content.toString('utf8').replace(/\r\n/g, '\n'))
    .digest('hex');
};

/**
 * Each input file (from the repository's root, sorted) with its SHA-256; throws when a folder of INPUTS has none
 * (it moved: the list must follow it, or the check would pass on nothing).
 * @returns {Record<string, string>}
 */
function inputDigests() {
  /** @type {string[]} */
  const files = [];
  for (const { dir, names } of INPUTS) {
    const found = existsSync(join(ROOT, dir))
      ? readdirSync(join(ROOT, dir), { withFileTypes: true })
          .filter((entry) => entry.isFile() && names.test(entry.name) && NOT_A_TEST.test(entry.name))
          .map((entry) => `${dir}/${entry.name}`)
      : [];
    if (found.length === 0)
      throw new Error(`scripts/screenshotInputs.cjs: no file in ${dir} matches ${names}; if it moved, move the input with it.`);
    files.push(...found);
  }
  return Object.fromEntries(files.sort().map((file) => [file, sha256(file)]));
}

/** The pictures in docs/ with their SHA-256, sorted. @returns {Record<string, string>} */
function screenshotDigests() {
  const files = readdirSync(join(ROOT, 'docs'))
    .filter((name) => SCREENSHOTS_PATTERN.test(name))
    .map((name) => `docs/${name}`)
    .sort();
  return Object.fromEntries(files.map((file) => [file, sha256(file)]));
}

/**
 * The manifest as `npm run screenshots` writes it after making the pictures.
 * @typedef {{ about: string, screenshots: Record<string, string>, inputs: Record<string, string> }} Manifest
 * @returns {Manifest}
 */
function currentManifest() {
  return {
    about:
      'Written by `npm run screenshots` with the pictures: their SHA-256 and that of each file that decides what they show ' +
      '(scripts/screenshotInputs.cjs). shell/test/unit/screenshots.test.ts fails when these no longer match.',
    screenshots: screenshotDigests(),
    inputs: inputDigests(),
  };
}

/** Writes docs/screenshots.json for the pictures and inputs as they are now (the screenshot script, once it has shot). */
function writeManifest() {
  writeFileSync(join(ROOT, MANIFEST), `${JSON.stringify(currentManifest(), null, 2)}\n`);
}

/**
 * What differs between the committed manifest and the files as they are now: each a sentence naming a file; empty
 * when the pictures are current.
 * @returns {string[]}
 */
function staleness() {
  if (!existsSync(join(ROOT, MANIFEST))) return [`${MANIFEST} is missing`];
  /** @type {Manifest} */
  const recorded = JSON.parse(readFileSync(join(ROOT, MANIFEST), 'utf8'));
  const now = currentManifest();
  /** @param {string} what @param {Record<string, string>} before @param {Record<string, string>} after */
  const compare = (what, before, after) => [
    ...Object.keys(after)
      .filter((file) => before[file] !== after[file])
      .map((file) => `${file}: ${file in before ? 'changed' : `new ${what}`}`),
    ...Object.keys(before)
      .filter((file) => !(file in after))
      .map((file) => `${file}: ${what} gone`),
  ];
  return [...compare('input', recorded.inputs ?? {}, now.inputs), ...compare('picture', recorded.screenshots ?? {}, now.screenshots)];
}

module.exports = { INPUTS, MANIFEST, inputDigests, screenshotDigests, staleness, writeManifest };
