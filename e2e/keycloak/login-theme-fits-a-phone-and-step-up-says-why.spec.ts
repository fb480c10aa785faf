import { expect, test, type Page } from '@playwright/test';
import { IDP, USERS } from '../support/system';

// The realm's login theme (deploy/keycloak/themes/gatehouse, decisions/0071) on Keycloak 26: no page of the sign-in
// is wider than a phone — keycloak.v2 alone made the step-up page 487 px wide at 360 px with its hidden "Restart
// login" tooltip — and the step-up page says it is a confirmation, and why, instead of "Sign In".

/** The page's width beyond the viewport at each phone width, as [width, scrollWidth] pairs. */
async function widths(page: Page): Promise<Array<[number, number]>> {
  const seen: Array<[number, number]> = [];
  for (const width of [320, 360]) {
    await page.setViewportSize({ width, height: 740 });
    seen.push([width, await page.evaluate(() => document.documentElement.scrollWidth)]);
  }
  return seen;
}

test('@idp the sign-in and the step-up page fit a 320 px phone, and the step-up page says "Confirm it is you" and why', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/admin');
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  expect(await widths(page)).toEqual([
    [320, 320],
    [360, 360],
  ]);
  await page.locator('#username').fill(USERS.alice.username);
  await page.locator('#password').fill(USERS.alice.username);
  await page.locator('#kc-login').click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm it is you');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm it is you');
  await expect(page.locator('#gatehouse-confirm-why')).toHaveText(
    'The page you opened needs a stronger sign-in. Enter your password again to continue.',
  );
  expect(await widths(page)).toEqual([
    [320, 320],
    [360, 360],
  ]);

  await page.locator('#password').fill(USERS.alice.username);
  await page.locator('#kc-login').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
});
