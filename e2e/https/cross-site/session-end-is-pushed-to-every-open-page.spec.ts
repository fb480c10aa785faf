import { startSessionEvents, type SessionEvents } from '@gatehouse/session-events';
import { createRemoteJWKSet } from 'jose';
import { expect, heading, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn } from '../support/flows';
import { hiddenTab } from '../../support/visitor';

// The provider on another site, third-party cookies allowed and blocked: its back-channel logout reaches the
// session-events service (on loopback, as an operator's internal address), which streams the end through nginx
// (events.gatehouse.test, `GET /events` only) to the page's leading tab; the other tab hears it from the leading one
// (decisions/0118). No page is touched: without the push an untouched page learns it only by its own checks, minutes
// later (decisions/0090). The budget: the push, the other tab's proof with the provider and the render, on a loaded
// machine.
const PUSHED_WITHIN_MS = 4_000;

test.use({ backchannelLogout: true });

withBothCookieSettings(() => {
  let service: SessionEvents | undefined;
  test.afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  test("an administrator's logout ends the untouched pages of the session, visible and hidden, at once", async ({
    context,
    page,
    topology,
    realm,
  }, testInfo) => {
    // The test's own service: the issuer is its realm, as the browser reaches it; the keys are read on loopback.
    service = await startSessionEvents({
      port: topology.sessionEvents.port,
      issuer: `${topology.identityProvider}/realms/${realm.name}`,
      keys: createRemoteJWKSet(new URL(`${topology.identityProviderUpstream}/realms/${realm.name}/protocol/openid-connect/certs`)),
      origins: [topology.shell],
      publicUrl: topology.sessionEvents.url,
      quiet: true,
    });
    const streams: string[] = [];
    context.on('request', (request) => {
      if (request.url() === `${topology.sessionEvents.url}/events`) streams.push(request.method());
    });
    await openSignedIn(page, topology, '/profile', 'Profile');
    const hidden = await hiddenTab(context);
    await hidden.goto(`${topology.shell}/profile`);
    await expect(heading(hidden)).toHaveText('Profile');
    await expect(hidden.getByTestId('user-name')).toHaveText('Alice Anders');
    // One stream for the browser, held by its leading tab, open at the service.
    await expect.poll(() => service!.streams).toBe(1);
    expect(streams).toEqual(['GET']);

    await realm.logout('alice');
    const endedAt = Date.now();
    for (const tab of [page, hidden]) {
      await expect(tab.getByTestId('session-notice')).toHaveText(/^Your session ended/, { timeout: PUSHED_WITHIN_MS });
      await expect(tab.getByTestId('user-name')).toHaveCount(0);
    }
    const delayMs = Date.now() - endedAt;
    testInfo.annotations.push({ type: 'measured', description: `session end pushed to both tabs after ${delayMs} ms` });
    expect(delayMs).toBeLessThan(PUSHED_WITHIN_MS);
  });
});
