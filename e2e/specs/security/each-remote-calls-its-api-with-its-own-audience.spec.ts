import { expect, test, type Page, type Request } from '@playwright/test';
import { openWithSession, requestsTo, stepUpAtProvider } from '../../support/flows';

// Issue 28, decisions/0054: each demo remote calls its own API (demo-api/, :3010 under `npm start`) through authFetch
// with the view of the session the shell gave it. Every call carries a token whose audience is that API alone, and a
// token replayed at another remote's API is refused with 401 and a plain reason.

const API = 'http://localhost:3010';

function audienceOf(authorization: string | undefined): string[] {
  const token = authorization?.replace(/^Bearer /, '') ?? '';
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { aud?: string | string[] };
  return typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
}

async function apiAnswer(page: Page, remote: string): Promise<void> {
  await expect(page.locator(`[data-remote="${remote}"]`).getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });
}

test('each remote calls its own API with a token for that API alone; replayed at another API it gets 401 @idp', async ({
  page,
  request,
}) => {
  const calls: Request[] = requestsTo(page, API);

  await openWithSession(page, 'alice', '/profile');
  await apiAnswer(page, 'profile');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await apiAnswer(page, 'reports');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await apiAnswer(page, 'admin');

  const sent = calls.filter((call) => call.method() === 'GET');
  const byPath = new Map<string, string>();
  for (const call of sent) {
    const path = new URL(call.url()).pathname;
    const authorization = call.headers().authorization;
    expect(authorization, `${path} was called without a token`).toMatch(/^Bearer /);
    byPath.set(path, authorization!);
  }
  expect([...byPath.keys()].sort()).toEqual(['/admin', '/profile', '/reports']);
  for (const [path, authorization] of byPath) expect(audienceOf(authorization), path).toEqual([`${path.slice(1)}-api`]);
  await expect(page.locator('[data-remote="admin"]').getByTestId('api-audience')).toHaveText('admin-api');

  // the profile remote's token, replayed at the reports and admin APIs
  const profileToken = byPath.get('/profile')!;
  for (const other of ['/reports', '/admin']) {
    const replayed = await request.get(`${API}${other}`, { headers: { authorization: profileToken } });
    expect(replayed.status()).toBe(401);
    expect(await replayed.text()).toContain('profile-api');
  }
  // the page's own token, which carries every API's audience, never went to an API
  const pageToken = await page.evaluate(() => {
    const entry = (globalThis as unknown as Record<symbol, { session: { getToken(): Promise<string> } } | undefined>)[
      Symbol.for('gatehouse.auth-lib.session')
    ];
    return entry!.session.getToken();
  });
  expect(sent.map((call) => call.headers().authorization)).not.toContain(`Bearer ${pageToken}`);
});
