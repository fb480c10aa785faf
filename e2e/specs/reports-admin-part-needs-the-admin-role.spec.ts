import { expect, test } from '@playwright/test';
import { openWithSession } from '../support/flows';

test('carol (viewer) sees the report but not the administrators part @idp', async ({ page }) => {
  await openWithSession(page, 'carol', '/reports');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByRole('table').first()).toContainText('Total');
  await expect(page.getByTestId('admin-part')).toHaveCount(0);
  await expect(page.getByTestId('admin-part-hidden')).toBeVisible();
});

test('alice (viewer and admin) sees the administrators part too @idp', async ({ page }) => {
  await openWithSession(page, 'alice', '/reports');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByTestId('admin-part')).toContainText('Failure rate');
});
