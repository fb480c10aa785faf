import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { expect, test } from './support/fixtures';

// A page on an origin its client does not list (a new remote's dev port nobody added): the login-status frame's
// /init answers 403, the frame answers "error", and keycloak-js's init fails with "Error while checking login
// iframe". The session names the origin and the client to fix instead of "Could not reach the identity provider".
test('an app on an origin the client does not accept is told which origin to add to which client, and Retry works once it is added', async ({
  page,
  app,
  idp,
}, testInfo) => {
  const realm = `origin-${testInfo.testId}-${testInfo.retry}`;
  const admin = await signInAsAdmin(idp.url);
  // the client accepts another dev port only, as the demo realm before `npm run new-remote` wrote the overlay
  await admin.realms.create(testRealm(realm, { origin: 'http://localhost:3999' }));
  try {
    app.setConfig({ url: idp.url, realm, clientId: 'gatehouse-shell' });
    const init = page.waitForResponse((response) => response.url().includes('/login-status-iframe.html/init?'));
    await page.goto(`${app.origin}/start`);
    expect((await init).status()).toBe(403);
    await expect(page.locator('#status')).toHaveText('error', { timeout: 15_000 });
    const error = await page.evaluate(() => {
      const { code, message } = window.gatehouse!.snapshot().error ?? {};
      return { code, message };
    });
    expect(error.code).toBe('origin-not-allowed');
    expect(error.message).toContain(
      `does not accept this origin: add ${app.origin} to the web origins of client "gatehouse-shell" (realm "${realm}")`,
    );

    // what the message says to do, done through the admin API: the same page then gets past the frame
    admin.setConfig({ realmName: realm });
    const [client] = await admin.clients.find({ clientId: 'gatehouse-shell' });
    await admin.clients.update({ id: client!.id! }, { ...client, webOrigins: [...(client!.webOrigins ?? []), app.origin] });
    await page.evaluate(() => void window.gatehouse!.session.retry());
    await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  } finally {
    await (await signInAsAdmin(idp.url)).realms.del({ realm });
  }
});
