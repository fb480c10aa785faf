import { expect, expectWorking, test, TOKEN_LIFESPAN_S, twoSignedInTabs, untilTheFramesAreChecked } from './support/fixtures';

// Every node down (an outage, or an upgrade that stops the whole cluster) for longer than an access token
// lives. The visitor is told in plain words, at their next navigation, that the sign-in service cannot be
// reached; when the cluster is back the pages open by themselves on the same session — Keycloak 26 keeps user
// sessions in its database (persistent sessions) — without signing in again.

test('the whole cluster down for longer than a token: the visitor is told, and carries on without signing in when it is back', async ({
  context,
  cluster,
  scenario,
  traffic,
}) => {
  const { first, second } = await twoSignedInTabs(context, scenario);
  await untilTheFramesAreChecked(traffic, [first, second]);

  await Promise.all(cluster.nodes.map((node) => node.stop()));
  const downAt = Date.now();
  // (the first tab is on Profile, which counts down to the token's expiry; a navigation now would already ask for a new one)
  await expect(first.getByTestId('token-countdown')).toContainText('expired', { timeout: (TOKEN_LIFESPAN_S + 5) * 1000 });
  const waiting = (page: typeof first) =>
    page.getByRole('alert').filter({ has: page.getByRole('heading', { level: 1, name: 'Waiting for the sign-in service' }) });
  for (const [page, title] of [
    [first, 'Reports'],
    [second, 'Profile'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
    await expect(waiting(page)).toContainText(`${title} opens by itself as soon as the service is back`);
    await expect(page.getByTestId('user-name')).toHaveText(/alice/i);
  }
  // the scenario: down for longer than an access token lives (the page's clock)
  await first.waitForFunction((until) => Date.now() > until, downAt + TOKEN_LIFESPAN_S * 1000, { timeout: (TOKEN_LIFESPAN_S + 5) * 1000 });

  // (a node that is up first already answers the pages' retries while the other still starts)
  const restartAt = Date.now();
  await cluster.startAll();
  const backAt = Date.now();
  // Each page tries again by itself (at most 15 s apart): it opens its route, on the session it had.
  for (const [page, title] of [
    [first, 'Reports'],
    [second, 'Profile'],
  ] as const) {
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible({ timeout: 40_000 });
    await expectWorking(page, title);
  }
  await second.reload();
  await expectWorking(second, 'Profile');
  expect(traffic.refreshes(restartAt).length).toBeGreaterThan(0);
  expect(traffic.since(backAt).filter((answer) => answer.status >= 500)).toEqual([]);
  expect(traffic.since(downAt).filter((answer) => answer.path.includes('/login-actions/'))).toEqual([]);
});
