import { relative, resolve } from 'node:path';
import { test } from '@playwright/test';

const E2E = resolve(__dirname, '..');

/**
 * Who is starting a server now, for the run's registry (GATEHOUSE_OWNER, decisions/0107): the spec and the test or
 * hook running, as "production/session-revoked.spec.ts › session revoked › …"; outside a test (global setup), the
 * Playwright process.
 */
export function ownerLabel(): string {
  try {
    const info = test.info();
    return [relative(E2E, info.file), ...info.titlePath.slice(1)].join(' › ');
  } catch {
    return `Playwright (pid ${process.pid}, ${process.argv.slice(2).join(' ')})`;
  }
}
