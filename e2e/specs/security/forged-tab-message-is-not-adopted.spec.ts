import { expect, test } from '@playwright/test';
import { openSignedIn } from '../../support/flows';

// Security round (issue 24): any script of the origin can post on the tabs' channel. A token set with edited claims
// (another user, a role more) is not adopted by the signed-in shell: the session and the header keep the real user.
test('a forged token message on the tab channel does not change the signed-in user or roles', async ({ page }) => {
  await openSignedIn(page, 'bob', '/');

  const after = await page.evaluate(async () => {
    type PageSession = {
      getToken(): Promise<string>;
      getSnapshot(): { user: { name: string } | null };
      hasRealmRole(role: string): boolean;
    };
    const entry = (globalThis as unknown as Record<symbol, { session: PageSession } | undefined>)[Symbol.for('gatehouse.auth-lib.session')];
    if (!entry) throw new Error('the page has no Gatehouse session registry');
    const token = await entry.session.getToken();
    const encode = (claims: object) => btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const [header = '', payload = ''] = token.split('.');
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const forged = { ...claims, sub: 'mallory', name: 'Mallory (forged)', iat: now + 1, realm_access: { roles: ['superadmin', 'admin'] } };
    const refresh = { typ: 'Refresh', sid: claims.sid, azp: claims.azp, exp: now + 1800 };

    const name = 'gatehouse-auth:gatehouse:gatehouse-shell';
    // a channel created after the shell's receives the message after it (creation order), so once it has, the
    // shell's channel has had it too; its handler adopts (or not) synchronously
    const observer = new BroadcastChannel(name);
    const delivered = new Promise((resolve) => (observer.onmessage = resolve));
    new BroadcastChannel(name).postMessage({
      type: 'gatehouse-auth:tokens',
      tokens: { token: `${header}.${encode(forged)}.x`, refreshToken: `${header}.${encode(refresh)}.x`, idToken: null, timeSkew: 0 },
    });
    await delivered;
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { name: entry.session.getSnapshot().user?.name ?? null, superadmin: entry.session.hasRealmRole('superadmin') };
  });

  expect(after).toEqual({ name: 'Bob Brown', superadmin: false });
  await expect(page.getByTestId('user-name')).toHaveText('Bob Brown');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
});
