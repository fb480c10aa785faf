import { defineConfig } from '@playwright/test';
import path from 'node:path';
import base from '../playwright.config';

/**
 * Not part of `npm test`: `npm run screenshots` renders the README's pictures into docs/ over the dev system — the one
 * `npm start` runs when it is up, else started for the run as the dev suite starts it (and stopped after).
 */
export default defineConfig({
  ...base,
  forbidOnly: true,
  testDir: '.',
  testMatch: '*.screenshot.ts',
  // base's paths are relative to e2e/, this file's to e2e/screenshot/
  globalSetup: '../support/globalSetup.ts',
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, cwd: path.join(__dirname, '..') } : undefined,
});
