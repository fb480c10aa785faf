import { expect, test, type Locator, type Page } from '@playwright/test';
import { PHONE } from '../support/a11y';
import { IDP, SHELL, USERS } from '../support/system';

// A visitor with only a keyboard, on a phone-sized window (the navigation behind the Menu button): signs in,
// opens each remote, steps up, signs out. After every route change focus is on the new page's heading.

/** Presses `key` until `target` has focus (at most 25 times), as a keyboard user would. */
async function moveFocusTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let presses = 0; presses < 25; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

async function openFromMenu(page: Page, title: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  await moveFocusTo(page, menu, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await moveFocusTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }));
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
}

test('keyboard only: sign in, each remote, step-up and sign out, with focus on each new page’s heading @idp', async ({ page }) => {
  const heading = page.getByRole('heading', { level: 1 });
  await page.setViewportSize(PHONE);
  await page.goto('/');
  // A keyboard user presses Tab once the page is there: the shell renders it after the load event.
  await expect(heading).toHaveText('Home');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(heading).toHaveText('Home');
  await expect(heading).toBeFocused();

  // The menu opens, closes on Escape with focus back on its button, and reopens.
  const menu = page.getByRole('button', { name: 'Menu' });
  await moveFocusTo(page, menu, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  await moveFocusTo(page, page.getByRole('main').getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await expect(page.locator('#username')).toBeFocused();
  await page.keyboard.type(USERS.alice.username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(USERS.alice.username);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.origin === SHELL);
  await expect(page.getByTestId('user-name')).toHaveText(USERS.alice.name);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();

  for (const title of ['Profile', 'Reports']) {
    await openFromMenu(page, title);
    await expect(heading).toHaveText(title);
    await expect(heading).toBeFocused();
    await expect(page).toHaveTitle(`${title} · Gatehouse`);
  }

  await openFromMenu(page, 'Admin');
  await expect(heading).toHaveText('Confirm it is you');
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle('Admin · Gatehouse');
  await moveFocusTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await expect(page.locator('#password')).toBeFocused();
  await page.keyboard.type(USERS.alice.username);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.origin === SHELL);
  await expect(heading).toHaveText('Admin');
  await expect(page.getByTestId('acr')).toHaveText('gold');

  await openFromMenu(page, 'Home');
  await expect(heading).toHaveText('Home');
  await expect(heading).toBeFocused();
  await moveFocusTo(page, menu, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await moveFocusTo(page, page.getByRole('button', { name: 'Sign out' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveCount(0);
});
