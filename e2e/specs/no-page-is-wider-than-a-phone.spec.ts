import { expect, test, type Page } from '@playwright/test';
import { widerThanViewport } from '../support/a11y';
import { openWithSession, signInAtProvider, stepUpAtProvider } from '../support/flows';
import { IDP, REMOTES } from '../support/system';

// WCAG 1.4.10 Reflow: at 320 px no element reaches past the viewport (a table scrolls inside its own box), and
// at 360, 768 and 1280 px the page never scrolls sideways. Each check ends at 320 px.
const WIDTHS = [360, 768, 1280, 320];

async function expectReflows(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 700 });
    expect(await widerThanViewport(page), `${name} at ${width} px`).toEqual([]);
  }
}

test('every page of the shell and the login form fit 320 px without sideways scrolling, also with the menu open @idp', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto('/no/such/page/with/a/rather/long/address/that/does/not/break/the/layout');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expectReflows(page, 'Page not found');

  await page.goto('/profile');
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await expectReflows(page, 'the login form');
  await signInAtProvider(page, 'alice');
  await expect(page.getByTestId('full-name')).toHaveText('Alice Anders');
  await expect(page.getByText('Loading your account details…')).toHaveCount(0);
  await expectReflows(page, 'Profile');

  await page.setViewportSize({ width: 320, height: 700 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await widerThanViewport(page), 'the open menu at 320 px').toEqual([]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByTestId('admin-part')).toBeVisible();
  await expectReflows(page, 'Reports');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm it is you');
  await expectReflows(page, 'step-up');
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await expect(page.getByTestId('acr')).toHaveText('gold');
  await expectReflows(page, 'Admin');

  await page.route(`${REMOTES.profile}/**`, (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile is unavailable');
  await page.getByText('Details').click();
  await expectReflows(page, 'a failed slot with its details open');
});

test('Access denied fits 320 px', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await openWithSession(page, 'bob', '/reports');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
  await expectReflows(page, 'Access denied');
});
