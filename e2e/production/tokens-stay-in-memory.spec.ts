import { expect, test } from '@playwright/test';
import { signIn, watch } from './support/browser';
import { REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';

// Tokens live in memory only: never in web storage, in the app origins' cookies, in a URL, or in
// the console — through sign-in, every remote and a reload (silent check-sso).

let topology: Topology;
test.beforeAll(async () => {
  topology = await startTopology();
});
test.afterAll(async () => {
  await topology?.stop();
});

test('no token leaves memory @idp', async ({ page, context }) => {
  const tokens = new Set<string>();
  const unreadable: string[] = [];
  const urls: string[] = [];
  const reads: Promise<void>[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/protocol/openid-connect/token') || response.request().method() !== 'POST') return;
    const read = async () => {
      // An answer that cannot be read fails the test below: its tokens would otherwise go unsearched.
      const body = (await response.json().catch((error: unknown) => {
        unreadable.push(`${response.status()} ${response.url()}: ${String(error)}`);
        return {};
      })) as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token', 'id_token']) {
        if (typeof body[key] === 'string') tokens.add(body[key] as string);
      }
    };
    reads.push(read());
  });
  page.on('request', (request) => urls.push(request.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  const watched = await watch(page);

  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  for (const title of ['Profile', 'Admin', 'Reports']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // each remote's API token (a downscoped refresh, decisions/0054) is read before the page moves on
    await expect(page.getByTestId('api-answer')).toHaveText('Signed in as alice');
  }
  await Promise.all(reads); // a reload discards the bodies of the page's responses
  await page.reload();
  await expect(page.getByTestId('user-name')).toBeVisible();

  expect(unreadable).toEqual([]);
  expect(tokens.size).toBeGreaterThanOrEqual(3);
  // A whole token, or its signature alone, must not show up anywhere.
  const needles = [...tokens].flatMap((token) => [token, token.split('.')[2] ?? token]).filter((n) => n.length > 20);
  const leaks = (where: string, haystack: string) => needles.filter((n) => haystack.includes(n)).map(() => where);

  const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
  const appCookies = await context.cookies([SHELL, ...Object.values(REMOTE_ORIGINS)]);
  const found = [
    ...leaks('web storage', storage),
    ...leaks('cookies of the app origins', JSON.stringify(appCookies)),
    ...leaks('a URL', urls.join('\n')),
    ...leaks('the console', watched.console.join('\n')),
  ];
  expect([...new Set(found)]).toEqual([]);
});
