import { expect, test } from '@playwright/test';
import { navigationLinks, openWithSession } from '../support/flows';
import type { DemoUser } from '../support/system';

const expected: Record<DemoUser, string[]> = {
  alice: ['Home', 'Profile', 'Admin', 'Reports'],
  bob: ['Home', 'Profile'],
  carol: ['Home', 'Profile', 'Reports'],
};

test('a signed-out visitor sees only Home in the navigation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await navigationLinks(page)).toEqual(['Home']);
});

for (const [user, links] of Object.entries(expected) as [DemoUser, string[]][]) {
  test(`${user} sees the apps their roles open: ${links.join(', ')} @idp`, async ({ page }) => {
    await openWithSession(page, user);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
    await expect.poll(() => navigationLinks(page)).toEqual(links);
  });
}
