import { expect, test, type Page, type Response } from '@playwright/test';
import { fillLoginForm, signIn } from './support/browser';
import { createTestRealm, type Lifespans, type TestRealm } from './support/testRealm';
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

/**
 * When the provider's session has surely ended: the latest token answer's arrival plus its `refresh_expires_in`
 * (the session's idle timeout or the rest of its maximum lifespan, whichever comes first). The listener only notes
 * each answer and when it arrived; the bodies are read in the test's own flow (`await endedAt()`), while the page
 * is open — a read left running in a listener could outlive the test and fail it ("Test ended").
 * An answer that cannot be read, or has no `refresh_expires_in`, fails the test.
 */
function sessionSurelyEndedAt(page: Page): () => Promise<number> {
  const answers: Array<{ response: Response; arrived: number }> = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/protocol/openid-connect/token') && response.status() === 200)
      answers.push({ response, arrived: Date.now() });
  });
  return async () => {
    let endsAt = 0;
    for (const { response, arrived } of answers) {
      const body = (await response.json()) as { refresh_expires_in?: unknown };
      expect(typeof body.refresh_expires_in, `refresh_expires_in of the token answer that arrived at ${arrived}`).toBe('number');
      endsAt = Math.max(endsAt, arrived + (body.refresh_expires_in as number) * 1000);
    }
    return endsAt;
  };
}

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
}

for (const { name, lifespans } of cases) {
  test.describe(`session ${name} reached`, () => {
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
      const endedAt = sessionSurelyEndedAt(page);
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
      // The shell signs out at the refresh token's expiry by the page's clock, which can be a moment before the
      // provider's: a sign-in in that moment still finds Keycloak's session and returns without the form (seen
      // once in three on 26.7.3). The visitor's next action comes after it; so does the test's.
      const endsAt = await endedAt();
      expect(endsAt, 'the end of the session, from the token answers (refresh_expires_in)').toBeGreaterThan(0);
      await expect.poll(() => Date.now(), { timeout: 20_000 }).toBeGreaterThan(endsAt + 1_000);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await fillLoginForm(page, 'alice');
      await expect(page).toHaveURL(`${SHELL}/profile`);
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
      await expect(page.getByTestId('user-name')).toBeVisible();
      await expect(page.getByTestId('session-notice')).toHaveCount(0);
    });
  });
}
