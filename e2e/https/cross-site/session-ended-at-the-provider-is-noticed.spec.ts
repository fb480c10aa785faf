import { expect, test, withBothCookieSettings } from '../support/fixtures';
import { msUntilSessionEndIsNoticed, openSignedIn, recordTelemetry, sessionWatch } from '../support/flows';

// The session-end bound (decisions/0029) for a provider on another site: with third-party cookies allowed the login-status
// frame notices within one 5 s check; blocked, the frame cannot read the provider's cookie and the session is
// watched through the shell's server check instead (user-info, or the refresh grant once the token expired), every
// sessionWatchSeconds while the visitor uses the page (decisions/0090).
const NOTICED_WITHIN_MS = 30_000;

withBothCookieSettings(() => {
  test('a session ended at the provider is noticed by a page in use within 30 s', async ({
    page,
    topology,
    realm,
    thirdPartyCookies,
  }, testInfo) => {
    await recordTelemetry(page);
    await openSignedIn(page, topology, '/profile', 'Profile');
    await expect.poll(() => sessionWatch(page)).toBe(thirdPartyCookies === 'allowed' ? 'frame' : 'refresh');

    await msUntilSessionEndIsNoticed(page, () => realm.logout('alice'), NOTICED_WITHIN_MS, testInfo);
  });
});
