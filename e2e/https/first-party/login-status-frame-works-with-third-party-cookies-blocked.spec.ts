import type { Page } from '@playwright/test';
import { onKeycloak } from '../../support/provider';
import { expect, test } from '../support/fixtures';
import { msUntilSessionEndIsNoticed, openSignedIn, recordTelemetry, sessionWatch } from '../support/flows';
import type { HttpsTopology } from '../support/topology';

// The provider on the shell's site (sso.gatehouse.test next to portal.gatehouse.test), or under the shell's own
// origin (portal.gatehouse.test/auth, Keycloak only): its login-status frame is first-party, its cookie is not a
// third-party one, so the frame runs with third-party cookies blocked.
//
// An administrator's revocation: the dev provider's frame asks its server at each 5 s check. Keycloak 26's frame
// only compares its KEYCLOAK_SESSION cookie, which a revocation leaves in place, so on Keycloak the shell's server
// check (every sessionWatchSeconds, 15 s, decisions/0044) notices it: the bound is one such check and its request.
const REVOCATION_NOTICED_WITHIN_MS = onKeycloak ? 30_000 : 15_000;
// One 5 s frame check, its round trip and rendering.
const FRAME_NOTICES_WITHIN_MS = 5_000 + 3_000;

/** Records the answers to the frame's `…/login-status-iframe.html/init` (the provider accepts the frame's origin). */
function frameInits(page: Page, identityProvider: string): string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    if (
      response.url().startsWith(`${identityProvider}/realms/`) &&
      new URL(response.url()).pathname.endsWith('/login-status-iframe.html/init')
    ) {
      seen.push(`${response.status()}`);
    }
  });
  return seen;
}

/**
 * Signs alice in on /profile and waits until the login-status frame runs: keycloak-js kept it (it drops the frame
 * when its third-party-cookie check fails) and the provider accepted it (`…/init` answered 204).
 */
async function openSignedInWithTheFrame(page: Page, topology: HttpsTopology): Promise<void> {
  const inits = frameInits(page, topology.identityProvider);
  await recordTelemetry(page);
  await openSignedIn(page, topology, '/profile', 'Profile');
  await expect.poll(() => inits).toContain('204');
  await expect.poll(() => sessionWatch(page)).toBe('frame');
}

test('with the provider first-party, the login-status frame runs and a revocation is noticed', async ({
  page,
  topology,
  realm,
}, testInfo) => {
  await openSignedInWithTheFrame(page, topology);

  await msUntilSessionEndIsNoticed(page, () => realm.logout('alice'), REVOCATION_NOTICED_WITHIN_MS, testInfo);
});

test.describe('the frame alone', () => {
  // No server check: only the frame can notice, by reading the provider's (first-party) cookie.
  test.use({ shellOptions: { sessionWatchSeconds: 0 } });

  test("a sign-out on the provider's own page is noticed by the frame within one 5 s check", async ({
    page,
    context,
    topology,
    realm,
  }, testInfo) => {
    await openSignedInWithTheFrame(page, topology);

    const provider = await context.newPage();
    await msUntilSessionEndIsNoticed(
      page,
      async () => {
        await provider.goto(`${topology.identityProvider}/realms/${realm.name}/protocol/openid-connect/logout`);
        await provider.locator('#kc-logout').click();
        await provider.waitForLoadState();
      },
      FRAME_NOTICES_WITHIN_MS,
      testInfo,
    );
  });
});
