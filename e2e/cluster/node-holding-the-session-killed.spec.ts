import { expect, expectWorking, open, test, twoSignedInTabs, untilTheTokenIsRenewed } from './support/fixtures';

// A Keycloak node dies (SIGKILL: no clean shutdown, the other node learns it from JGroups) under three signed-in
// tabs — the node that answered their sign-in. The pages keep working on the other node: tokens are renewed,
// the session checks answered, a reload signs in silently; nobody is asked to sign in, no error is shown.

test('the node holding the session is killed: three open tabs keep working on the other node', async ({
  context,
  cluster,
  scenario,
  traffic,
}) => {
  const { first, second, holder } = await twoSignedInTabs(context, scenario);
  const survivor = cluster.nodes.find((node) => node !== holder)!;
  const third = await context.newPage();
  await third.goto('/');
  await expect(third.getByTestId('user-name')).toHaveText(/alice/i);

  await holder.kill();
  const killedAt = Date.now();

  // The token runs out; a navigation in each tab renews it (through the leading tab) on the other node.
  await untilTheTokenIsRenewed(first, traffic, killedAt);
  await open(first, 'Reports');
  await open(second, 'Profile');
  await open(third, 'Reports');
  // A reload: keycloak-js's silent check-sso and a new token, on the other node, with the session the dead node made.
  await second.reload();
  for (const [page, title] of [
    [first, 'Reports'],
    [second, 'Profile'],
    [third, 'Reports'],
  ] as const)
    await expectWorking(page, title);
  // At least one session check after the kill (the leading tab's, every sessionWatchSeconds), answered too. With the
  // suite's 10 s tokens, shorter than the check interval, the check is the shared refresh (auth-lib's session watch)
  // and user-info is asked only when a token outlives a check; since decisions/0096 no page read asks it either.
  await expect
    .poll(
      () =>
        traffic
          .since(killedAt)
          .filter((answer) => /\/protocol\/openid-connect\/(userinfo|token)$/.test(answer.path) && answer.status === 200).length,
    )
    .toBeGreaterThan(0);

  const after = traffic.since(killedAt);
  expect(after.filter((answer) => answer.status >= 500)).toEqual([]);
  expect(new Set(after.map((answer) => answer.node))).toEqual(new Set([survivor.address]));
  // nobody was sent to the sign-in form
  expect(after.filter((answer) => answer.path.includes('/login-actions/'))).toEqual([]);
});
