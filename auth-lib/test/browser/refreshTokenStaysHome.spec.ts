import type { Page, Response } from '@playwright/test';
import { openSignedInTabs } from './support/tabs';
import { expect, signIn, test } from './support/fixtures';

// decisions/0053: the refresh token stays in the keycloak-js instance the provider gave it to. It is in no
// tab message, no page global and no web storage, after sign-in, after a refresh and after a tab was seeded; and a
// token set with edited claims posted on the tab channel, as any same-origin script can, is refused.

/**
 * What the token endpoint issued, read from the network by the test (no page script can read it this way). A body
 * that cannot be read is noted in `unreadable`, which the test requires empty: it is never counted as "no token"; and
 * the read's rejection is handled, so a read that meets the test's end cannot fail it afterwards.
 */
function refreshTokensIssued(page: Page): { issued: string[]; unreadable: string[] } {
  const issued: string[] = [];
  const unreadable: string[] = [];
  page.on('response', (response: Response) => {
    if (!response.url().endsWith('/protocol/openid-connect/token') || response.status() !== 200) return;
    response.json().then(
      (body: { refresh_token?: string }) => body.refresh_token && issued.push(body.refresh_token),
      (error: unknown) => unreadable.push(`${response.url()}: ${String(error)}`),
    );
  });
  return { issued, unreadable };
}

/** A same-origin page script listening on the session's tab channel, and asking it for tokens as a new tab does. */
async function channelSpy(page: Page, realm: string): Promise<void> {
  await page.evaluate((name) => {
    const heard: unknown[] = [];
    const channel = new BroadcastChannel(name);
    channel.onmessage = (event: MessageEvent<unknown>) => void heard.push(event.data);
    Object.assign(window, { spy: { heard, channel } });
    channel.postMessage({ type: 'gatehouse-auth:seed-request' });
  }, `gatehouse-auth:${realm}:gatehouse-shell`);
}

/** Every string a page script reaches from `window` (own properties, three levels deep) and from web storage. */
function reachableStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const seen = new Set<unknown>();
    const walk = (value: unknown, depth: number) => {
      if (typeof value === 'string') return void found.push(value);
      if (depth === 0 || value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return;
      seen.add(value);
      for (const key of Object.getOwnPropertyNames(value)) {
        let child: unknown;
        try {
          child = (value as Record<string, unknown>)[key];
        } catch {
          continue;
        }
        walk(child, depth - 1);
      }
    };
    for (const key of Object.getOwnPropertyNames(window)) {
      if (key === 'spy' || key === 'window' || key === 'self' || key === 'top' || key === 'parent' || key === 'frames') continue;
      try {
        walk((window as unknown as Record<string, unknown>)[key], 3);
      } catch {
        // a cross-origin property
      }
    }
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i += 1) found.push(storage.getItem(storage.key(i)!) ?? '');
    }
    return found;
  });
}

test('no refresh token reaches the tab channel, page scripts or storage: after sign-in, a refresh and seeding a tab', async ({
  page,
  context,
  app,
  realm,
}) => {
  const { issued, unreadable } = refreshTokensIssued(page);
  await signIn(page, app);
  const [seeded] = await openSignedInTabs(context, app, 1);
  await channelSpy(seeded!, realm);
  await expect.poll(() => seeded!.evaluate(() => (window as unknown as { spy: { heard: unknown[] } }).spy.heard.length)).toBeGreaterThan(0);
  await page.evaluate(() => window.gatehouse!.session.extend()); // a refresh in the tab that holds the refresh token
  await expect.poll(() => issued.length).toBe(2); // the code exchange's and the refresh's
  await seeded!.evaluate(() => window.gatehouse!.session.getToken({ forceRefresh: true })); // a renewal asked from the seeded tab
  await expect.poll(() => issued.length).toBe(3);
  expect(unreadable, 'token answers whose body could not be read').toEqual([]);

  const heard = await seeded!.evaluate(() => JSON.stringify((window as unknown as { spy: { heard: unknown[] } }).spy.heard));
  const tokenSets = JSON.parse(heard) as { type: string; tokens?: Record<string, unknown> }[];
  expect(tokenSets.filter((message) => message.type === 'gatehouse-auth:tokens').length).toBeGreaterThanOrEqual(3);
  for (const tab of [page, seeded!]) {
    const strings = await reachableStrings(tab);
    expect(strings.length).toBeGreaterThan(100); // the walk read the page (an empty walk would prove nothing)
    for (const refreshToken of issued) {
      expect(heard.includes(refreshToken), 'a tab message carries a refresh token').toBe(false);
      expect(strings.includes(refreshToken), 'a page script reaches a refresh token').toBe(false);
    }
  }
  for (const message of tokenSets) expect(Object.keys(message.tokens ?? {})).not.toContain('refreshToken');
  // the seeded tab holds none, the tab that signed in does (keycloak-js's, in a closure no page script reaches)
  expect(await seeded!.evaluate(() => window.gatehouse!.session.getToken())).toBe(
    await page.evaluate(() => window.gatehouse!.session.getToken()),
  );
});

test("a token set of this session with edited claims and the provider's signature kept is refused, and reported", async ({
  signedInPage: page,
  realm,
}) => {
  const before = await page.evaluate(() => window.gatehouse!.session.getToken());

  await page.evaluate(
    ({ name, token }) => {
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
      const edited = {
        ...claims,
        name: 'Mallory',
        realm_access: { roles: ['superadmin'] },
        iat: Number(claims.iat) + 1,
        exp: Number(claims.exp) + 86_400,
      };
      const forged = `${header}.${btoa(JSON.stringify(edited)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.${signature}`;
      // posted from another BroadcastChannel object of this origin: what any same-origin script can do
      new BroadcastChannel(name).postMessage({
        type: 'gatehouse-auth:tokens',
        tokens: { token: forged, idToken: null, timeSkew: 0, refreshExpiresAt: null },
      });
    },
    { name: `gatehouse-auth:${realm}:gatehouse-shell`, token: before },
  );

  await expect
    .poll(() => page.evaluate(() => window.gatehouse!.events.filter((event) => event.type === 'tabMessageRefused')))
    .toEqual([{ type: 'tabMessageRefused', reason: 'access token: signature does not verify' }]);
  expect(await page.evaluate(() => window.gatehouse!.session.getToken())).toBe(before);
  expect(await page.evaluate(() => window.gatehouse!.snapshot().user?.name)).not.toBe('Mallory');
  expect(await page.evaluate(() => window.gatehouse!.session.hasRealmRole('superadmin'))).toBe(false);
});
