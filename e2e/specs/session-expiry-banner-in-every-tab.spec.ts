import { expect, test, type Page } from '@playwright/test';
import { openWithSession } from '../support/flows';
import { IDP, SHELL } from '../support/system';

// The demo realm's SSO idle timeout is 30 min; a lead time longer than that shows the countdown at once.
test.beforeEach(async ({ context }) => {
  await context.route(`${SHELL}/config.json`, async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as { identityProvider: Record<string, unknown> };
    config.identityProvider.expiryWarningSeconds = 3600;
    await route.fulfill({ response, json: config });
  });
});

const left = (page: Page) => page.getByTestId('session-expiry-left').innerText();
const seconds = (text: string) => text.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);

test('every tab counts down to the same end; Stay signed in moves it in every tab with one token request @idp', async ({
  page,
  context,
}) => {
  await openWithSession(page, 'alice', '/profile');
  // Profile's API card fetches its own downscoped token (a refresh with scope=profile-api, decisions/0054) once it
  // mounts; it is done before the count below starts, so the count is Stay signed in's alone.
  await expect(page.getByTestId('api-answer')).toHaveText('Signed in as alice');
  await expect(page.getByTestId('session-expiry')).toBeVisible();
  const atStart = seconds(await left(page));
  const other = await context.newPage();
  await other.goto(`${SHELL}/`);
  await expect(other.getByTestId('user-name')).toBeVisible();
  await expect(page.getByTestId('session-expiry')).toBeVisible();
  await expect(other.getByTestId('session-expiry')).toBeVisible();
  await expect
    .poll(async () => Math.abs(seconds(await left(page)) - seconds(await left(other))), { timeout: 5_000 })
    .toBeLessThanOrEqual(1);

  // Let the countdown run 3 s from its start, so that a moved end shows (what the tabs did above took part of that).
  await expect.poll(async () => seconds(await left(other)), { intervals: [250] }).toBeLessThanOrEqual(atStart - 3);
  const before = seconds(await left(other));
  let refreshes = 0;
  context.on('request', (request) => {
    if (request.url().startsWith(IDP) && request.postData()?.includes('grant_type=refresh_token')) refreshes += 1;
  });
  await page.getByRole('button', { name: 'Stay signed in' }).click();

  await expect.poll(async () => seconds(await left(other)), { timeout: 5_000 }).toBeGreaterThan(before);
  expect(Math.abs(seconds(await left(page)) - seconds(await left(other)))).toBeLessThanOrEqual(1);
  expect(refreshes).toBe(1);
});
