import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium, noChromiumMessage } from '../../src/chromium';

// Real executables in a temporary folder stand in for /usr/bin's (findChromium only checks that they exist and run).
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'testkit-chromium-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function executable(name: string): string {
  const path = join(root, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** The system's places, here: an absolute path and a name on PATH per build, as on Debian. */
function candidates() {
  return {
    'headless-shell': [join(root, 'chromium-headless-shell'), 'headless-shell-on-path'],
    browser: [join(root, 'chromium'), 'chromium-on-path'],
  };
}

const find = (needs: 'page' | 'browser', env: NodeJS.ProcessEnv = { PATH: '' }) =>
  findChromium({ needs, env, candidates: candidates(), playwright: false });

test('a page engine is the headless shell when both builds are installed', () => {
  const shell = executable('chromium-headless-shell');
  executable('chromium');
  expect(find('page')).toEqual({ path: shell, source: 'system', build: 'headless-shell' });
});

test('without the headless shell a page engine is the browser', () => {
  const browser = executable('chromium');
  expect(find('page')).toEqual({ path: browser, source: 'system', build: 'browser' });
});

test('the browser is never the headless shell', () => {
  executable('chromium-headless-shell');
  expect(find('browser')).toBeNull();
  const browser = executable('chromium');
  expect(find('browser')).toEqual({ path: browser, source: 'system', build: 'browser' });
});

test('a build is found by its name on PATH', () => {
  const onPath = executable('headless-shell-on-path');
  expect(find('page', { PATH: root })).toEqual({ path: onPath, source: 'system', build: 'headless-shell' });
});

test('CHROMIUM_PATH wins for both, and must name an executable', () => {
  executable('chromium-headless-shell');
  const chosen = executable('my-chromium');
  expect(find('page', { CHROMIUM_PATH: chosen })).toEqual({ path: chosen, source: 'CHROMIUM_PATH', build: 'unknown' });
  expect(find('browser', { CHROMIUM_PATH: chosen })?.path).toBe(chosen);
  expect(() => find('page', { CHROMIUM_PATH: join(root, 'missing') })).toThrow(
    `CHROMIUM_PATH is ${join(root, 'missing')}, which is not an executable file. Point it at a Chromium build, or unset it.`,
  );
});

test('the message for a missing browser says why the headless shell does not do', () => {
  expect(noChromiumMessage('browser')).toMatch(/^No Chromium browser found \(the headless shell alone does not do: .*cookie/);
  expect(noChromiumMessage()).toMatch(/^No Chromium found: /);
  expect(noChromiumMessage()).toMatch(/Install it with `.*`, or set CHROMIUM_PATH to a Chromium executable\.$/);
});
