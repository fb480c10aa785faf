import { expect, test } from '../support/fixtures';
import { msUntilSessionEndIsNoticed, openSignedIn, recordTelemetry, sessionWatch } from '../support/flows';

// The provider on the shell's site (sso.gatehouse.test next to portal.gatehouse.test): its login-status frame is
// same-site, its cookie is not a third-party one, so the 5 s check works with third-party cookies blocked.
const NOTICED_WITHIN_MS = 15_000;

test('with the provider on the shell site, the login-status frame reads the session and a revocation is noticed within 15 s', async ({
  page,
  topology,
  realm,
}, testInfo) => {
  const statusChecks: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === topology.identityProvider && url.pathname.endsWith('/login-status-iframe.html/init')) {
      statusChecks.push(`${response.status()}`);
    }
  });
  await recordTelemetry(page);
  await openSignedIn(page, topology, '/profile', 'Profile');
  // The frame was kept (keycloak-js drops it when its third-party-cookie check fails) and the provider accepted it.
  await expect.poll(() => statusChecks).toContain('204');
  await expect.poll(() => sessionWatch(page)).toBe('frame');

  await msUntilSessionEndIsNoticed(page, () => realm.logout('alice'), NOTICED_WITHIN_MS, testInfo);
});
