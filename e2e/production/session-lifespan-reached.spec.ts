import { expect, test, type Page } from '@playwright/test';
import { fillLoginForm, signIn } from './support/browser';
import { createTestRealm, type Lifespans, type TestRealm } from './support/testRealm';
import { onKeycloak } from '../support/provider';
import { SHELL, startTopology, type Topology } from './support/topology';

// The provider's session reaches its idle timeout or its maximum lifespan while the page is open:
// the visitor is told, the next action asks them to sign in (the provider asks for the password
// again: its session is gone), and they land on the route they were opening.

const cases: Array<{ name: string; lifespans: Lifespans }> = [
  // auth-lib signs out at the refresh token's expiry itself (decision 0015): the lifespans leave time to open Profile first
  { name: 'idle timeout', lifespans: { ssoSessionIdleTimeout: 8 } },
  // The idle timeout stays long: only the maximum lifespan can end this session.
  { name: 'maximum lifespan', lifespans: { ssoSessionMaxLifespan: 12 } },
];

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
}

for (const { name, lifespans } of cases) {
  test.describe(`session ${name} reached`, () => {
    // Dev provider only for the idle timeout: Keycloak keeps an idle session valid for another 120 s
    // (SessionTimeoutHelper.IDLE_TIMEOUT_WINDOW_SECONDS, for clusters' clocks), so right after the 8 s timeout its
    // sign-in returns without asking for the password, and its login-status frame (cookie only) does not report it.
    // Seen against Keycloak 26.7.3: the notice came (auth-lib's own sign-out at the refresh token's expiry), then
    // "Sign in" came straight back signed in (deploy/keycloak/README.md, "Where the dev provider and Keycloak differ").
    test.skip(onKeycloak && name === 'idle timeout', 'Keycloak keeps an idle session for 120 s past its idle timeout');

    let realm: TestRealm;
    let topology: Topology;
    test.beforeAll(async () => {
      realm = await createTestRealm(name.replace(/\W+/g, '-'), lifespans);
      topology = await startTopology({ config: realm.config() });
    });
    test.afterAll(async () => {
      await topology?.stop();
      await realm?.delete();
    });

    test('the next action asks to sign in and returns to the same route', async ({ page }) => {
      await page.goto(`${SHELL}/`);
      await signIn(page, 'alice');
      await open(page, 'Profile');
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

      // The provider ends the session by itself; the next login-status check reports it.
      await expect(page.getByTestId('session-notice')).toHaveText(/Your session ended/, { timeout: 20_000 });
      await expect(page.getByTestId('user-name')).toHaveCount(0);

      // The page stays where it was and asks to sign in; signing in returns to this route.
      await expect(page).toHaveURL(`${SHELL}/profile`);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await fillLoginForm(page, 'alice');
      await expect(page).toHaveURL(`${SHELL}/profile`);
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
      await expect(page.getByTestId('user-name')).toBeVisible();
      await expect(page.getByTestId('session-notice')).toHaveCount(0);
    });
  });
}
