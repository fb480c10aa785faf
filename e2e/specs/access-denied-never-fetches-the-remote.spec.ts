import { expect, test } from '@playwright/test';
import { networkQuiet, openWithSession, requestsTo } from '../support/flows';
import { REMOTES } from '../support/system';

test('bob opening /admin gets Access denied naming the missing role, and nothing of the admin remote is fetched @idp', async ({ page }) => {
  const adminRequests = requestsTo(page, REMOTES.admin);
  const quiet = networkQuiet(page);
  await openWithSession(page, 'bob');

  await page.goto('/admin');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
  await expect(page.getByRole('main')).toContainText('realm role "admin"');
  await quiet();
  expect(adminRequests.map((request) => request.url())).toEqual([]);
});

test('bob opening /reports gets Access denied naming the client role, and nothing of the reports remote is fetched @idp', async ({
  page,
}) => {
  const reportsRequests = requestsTo(page, REMOTES.reports);
  const quiet = networkQuiet(page);
  await openWithSession(page, 'bob', '/reports');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
  await expect(page.getByRole('main')).toContainText('client role "viewer" of client "reports"');
  await quiet();
  expect(reportsRequests.map((request) => request.url())).toEqual([]);
});
