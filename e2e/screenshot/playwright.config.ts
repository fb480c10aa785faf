import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/** Not part of `npm test`: renders the README's screenshot over the running dev system. */
export default defineConfig({
  ...base,
  forbidOnly: true,
  testDir: '.',
  testMatch: '*.screenshot.ts',
  globalSetup: undefined,
  webServer: undefined,
});
