import { expect, test, type Page, type Request } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { fillLoginForm } from './support/browser';
import { SHELL, startTopology, type Topology } from './support/topology';

// A login callback whose `state` this page never issued (forged, or replayed from another browser)
// is refused: no code exchange, no session.

let topology: Topology;
test.beforeAll(async () => {
  topology = await startTopology();
});
test.afterAll(async () => {
  await topology?.stop();
});

function tokenRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/protocol/openid-connect/token')) seen.push(request);
  });
  return seen;
}

async function expectSignedOut(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveCount(0);
}

test('a forged callback (unknown state) is refused', async ({ page }) => {
  const exchanges = tokenRequests(page);
  await page.goto(`${SHELL}/#state=${randomUUID()}&session_state=${randomUUID()}&code=forged-code`);
  await expectSignedOut(page);
  await page.waitForLoadState('networkidle');
  expect(exchanges).toHaveLength(0);
});

test('a callback replayed in another browser is refused @idp', async ({ page, browser }) => {
  // A real sign-in in one browser; its callback URL (code + state) is captured.
  let callback: string | undefined;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(SHELL) && frame.url().includes('code=')) callback ??= frame.url();
  });
  await page.goto(`${SHELL}/profile`);
  await fillLoginForm(page, 'alice');
  await expect(page.getByTestId('user-name')).toBeVisible();
  expect(callback).toBeDefined();

  // Someone else opens that URL: the state was never issued in their browser.
  const other = await browser.newContext();
  try {
    const victim = await other.newPage();
    const exchanges = tokenRequests(victim);
    await victim.goto(callback!.replace(`${SHELL}/profile`, `${SHELL}/`));
    await expectSignedOut(victim);
    await victim.waitForLoadState('networkidle');
    expect(exchanges).toHaveLength(0);
  } finally {
    await other.close();
  }
});
