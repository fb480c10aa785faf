import { expect, test } from '@playwright/test';
import { openWithSession } from '../../support/flows';

// Security rounds: any script of the origin can post on the tabs' channel. A token set with edited
// claims — of this very session (same sub, sid, iss, azp), a role more, a day longer, the provider's signature kept —
// is not adopted by the signed-in shell, which reports it (telemetry `tabMessageRefused`); the user and roles stay.
test('a forged token message on the tab channel does not change the signed-in user or roles, and is reported @idp', async ({ page }) => {
  await openWithSession(page, 'bob', '/');

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
    const forged = {
      ...claims,
      name: 'Mallory (forged)',
      iat: now + 1,
      exp: now + 86_400,
      realm_access: { roles: ['superadmin', 'admin'] },
    };
    const signature = token.split('.')[2];

    const refused = new Promise<unknown>((resolve) =>
      window.addEventListener('gatehouse:telemetry', (event) => {
        const detail = (event as CustomEvent<{ type: string }>).detail;
        if (detail.type === 'tabMessageRefused') resolve(detail);
      }),
    );
    new BroadcastChannel('gatehouse-auth:gatehouse:gatehouse-shell').postMessage({
      type: 'gatehouse-auth:tokens',
      tokens: { token: `${header}.${encode(forged)}.${signature}`, idToken: null, timeSkew: 0, refreshExpiresAt: now + 86_400 },
    });
    const report = await refused;
    return {
      report,
      name: entry.session.getSnapshot().user?.name ?? null,
      superadmin: entry.session.hasRealmRole('superadmin'),
      sameToken: (await entry.session.getToken()) === token,
    };
  });

  expect(after).toEqual({
    report: { type: 'tabMessageRefused', reason: 'access token: signature does not verify' },
    name: 'Bob Brown',
    superadmin: false,
    sameToken: true,
  });
  await expect(page.getByTestId('user-name')).toHaveText('Bob Brown');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
});
