import { expect, heading, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn, topLevelDocumentLoads } from '../support/flows';

const ACCESS_TOKEN_SECONDS = 8;
test.use({ lifespans: { accessTokenLifespan: ACCESS_TOKEN_SECONDS } });

// The shell renews an expired token when the visitor moves on (never on a timer: an unused token must let the
// provider's session idle out). The refresh grant is a CORS call to the token endpoint — no cookie, no frame,
// no redirect — so it works whatever the browser does with third-party cookies.
withBothCookieSettings(() => {
  test('after the access token expires, the next navigation refreshes it with no top-level navigation', async ({
    page,
    topology,
    realm,
  }) => {
    const tokenEndpoint = `${topology.identityProvider}/realms/${realm.name}/protocol/openid-connect/token`;
    const signInAnswered = page.waitForResponse((response) => response.url() === tokenEndpoint).then(() => Date.now());
    await openSignedIn(page, topology, '/profile', 'Profile');
    // The token was issued before its answer arrived: it has expired for sure one lifespan (and a margin for the
    // shell's clock-skew correction) after that answer. The countdown rounds, so it says "expired" slightly early.
    const expiredSurelyAt = (await signInAnswered) + (ACCESS_TOKEN_SECONDS + 1) * 1000;
    const documentLoads = topLevelDocumentLoads(page);
    const refreshes: number[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (request.url() === tokenEndpoint && /grant_type=refresh_token/.test(request.postData() ?? '')) refreshes.push(response.status());
    });

    await expect(page.getByTestId('token-countdown')).toHaveText(/^expired/, { timeout: (ACCESS_TOKEN_SECONDS + 10) * 1000 });
    await expect.poll(() => Date.now(), { timeout: (ACCESS_TOKEN_SECONDS + 10) * 1000 }).toBeGreaterThan(expiredSurelyAt);
    expect(refreshes).toEqual([]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();

    await expect(heading(page)).toHaveText('Reports');
    await expect.poll(() => refreshes).toEqual([200]);
    await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByTestId('token-countdown')).toHaveText(/^expires in \d+ s /);
    await expect(page.getByTestId('session-notice')).toHaveCount(0);
    expect(documentLoads).toEqual([]);
  });
});
