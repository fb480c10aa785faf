import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { endSessionsOf, signInAsAdmin } from '@gatehouse/testkit/admin';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { openWithSession } from '../support/flows';
import { onKeycloak } from '../support/provider';
import { hiddenTab, visitorUsing } from '../support/visitor';
import { IDP, REALM_URL, SESSION_EVENTS, USERS, type DemoUser } from '../support/system';

// The provider posts a back-channel logout token to session-events when a session ends (the realm's gatehouse-shell
// client: http://localhost:3020/backchannel-logout); the service streams it to the page's leading tab, which ends the
// session and tells the other tabs (decisions/0118). Without the push an untouched page learns it by its own checks:
// on Keycloak 26 never through the login-status frame (an administrator's sign-out leaves its cookie), and the server
// check waits while nobody uses the page (decisions/0090) — minutes. The budget: the push (well under a second on
// loopback), the other tabs' proof with the provider and the render, on a loaded machine.
const PUSHED_WITHIN = 4_000;

/** Every request a browser (context) makes for the session-events stream. */
function streamsOf(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on('request', (request) => {
    if (request.url() === `${SESSION_EVENTS}/events`) seen.push(request.method());
  });
  return seen;
}

async function signedInBrowser(browser: Browser, user: DemoUser) {
  const context = await browser.newContext();
  const streams = streamsOf(context);
  const visible = await context.newPage();
  await openWithSession(visible, user, '/profile');
  return { context, streams, visible };
}

async function expectEnded(page: Page): Promise<void> {
  await expect(page.getByTestId('session-notice')).toContainText('Your session ended', { timeout: PUSHED_WITHIN });
  await expect(page.getByTestId('user-name')).toHaveCount(0);
}

test("an administrator's logout ends every open page of that session at once, visible and hidden; another user's page stays @idp", async ({
  browser,
}) => {
  const alice = await signedInBrowser(browser, 'alice');
  const hidden = await hiddenTab(alice.context);
  await hidden.goto('/profile');
  await expect(hidden.getByTestId('user-name')).toHaveText(USERS.alice.name);
  expect(await hidden.evaluate(() => document.visibilityState)).toBe('hidden');
  const bob = await signedInBrowser(browser, 'bob');
  // One stream per browser, held by its leading tab, not one per tab.
  await expect.poll(() => alice.streams.length).toBe(1);
  await expect.poll(() => bob.streams.length).toBe(1);
  expect(alice.streams).toEqual(['GET']);

  // Nobody touches any page from here on.
  await endSessionsOf(IDP, 'gatehouse', 'alice');
  await Promise.all([expectEnded(alice.visible), expectEnded(hidden)]);

  await expect(bob.visible.getByTestId('user-name')).toHaveText(USERS.bob.name);
  await expect(bob.visible.getByTestId('session-notice')).toHaveCount(0);
  // Bob's stream is still the one it was: his page heard nothing of alice's end.
  expect(bob.streams).toHaveLength(1);
  await Promise.all([alice.context.close(), bob.context.close()]);
});

test('a sign-out in another browser ends the open pages of the same session there at once @idp', async ({ browser }) => {
  const first = await signedInBrowser(browser, 'alice');
  await expect.poll(() => first.streams.length).toBe(1);
  // The other browser holds the same provider session (its cookies), as a visitor's second device signed in to it does.
  const other = await browser.newContext({ storageState: await first.context.storageState() });
  const elsewhere = await other.newPage();
  await elsewhere.goto('/profile');
  await expect(elsewhere.getByTestId('user-name')).toHaveText(USERS.alice.name);

  await elsewhere.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(elsewhere.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectEnded(first.visible);
  await Promise.all([first.context.close(), other.close()]);
});

test('a logout token the provider did not sign is refused and changes nothing @idp', async ({ browser }) => {
  const alice = await signedInBrowser(browser, 'alice');
  await expect.poll(() => alice.streams.length).toBe(1);
  const admin = await signInAsAdmin(IDP);
  const [user] = await admin.users.find({ realm: 'gatehouse', username: 'alice', exact: true });
  const sessions = await admin.users.listSessions({ realm: 'gatehouse', id: user!.id! });
  expect(sessions.length).toBeGreaterThan(0);

  // Shaped as the provider's (decisions/0118), for each of alice's sessions, signed by a key that is not the realm's.
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = (await exportJWK(publicKey)).n!.slice(0, 16);
  for (const session of sessions) {
    const token = await new SignJWT({ sid: session.id, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } })
      .setProtectedHeader({ alg: 'RS256', typ: 'logout+jwt', kid })
      .setIssuer(REALM_URL)
      .setAudience('gatehouse-shell')
      .setSubject(user!.id!)
      .setIssuedAt()
      .setExpirationTime('2m')
      .setJti(randomUUID())
      .sign(privateKey);
    const answer = await fetch(`${SESSION_EVENTS}/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }),
    });
    expect(answer.status).toBe(400);
  }

  // Longer than the push takes (PUSHED_WITHIN): the page is still signed in, with its stream open.
  await alice.visible.waitForTimeout(PUSHED_WITHIN);
  await expect(alice.visible.getByTestId('user-name')).toHaveText(USERS.alice.name);
  await expect(alice.visible.getByTestId('session-notice')).toHaveCount(0);
  expect(alice.streams).toHaveLength(1);
  await alice.context.close();
});

// Today's checks (e2e/production/session-revoked.spec.ts): the dev provider's login-status frame every 5 s; on Keycloak
// the shell's server check every 15 s while the visitor uses the page. One check, its request and rendering.
const CHECKED_WITHIN = onKeycloak ? 15_000 + 5_000 : 5_000 + 2_500;

test('with the service unreachable the page works as before, and a page in use notices the end by its own checks @idp', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const streams = streamsOf(context);
  // The service down, as this browser meets it: every connection to it fails.
  await context.route(`${SESSION_EVENTS}/**`, (route) => route.abort('connectionrefused'));
  const page = await context.newPage();
  await openWithSession(page, 'alice', '/profile');
  await expect.poll(() => streams.length).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByTestId('session-notice')).toHaveCount(0);

  const stopUsing = visitorUsing(page);
  await endSessionsOf(IDP, 'gatehouse', 'alice');
  const endedAt = Date.now();
  await expect(page.getByTestId('session-notice')).toContainText('Your session ended', { timeout: CHECKED_WITHIN }).finally(stopUsing);
  expect(Date.now() - endedAt).toBeLessThan(CHECKED_WITHIN);
  await context.close();
});
