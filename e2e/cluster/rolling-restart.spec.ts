import { expect, expectWorking, open, test, twoSignedInTabs, untilTheTokenIsRenewed } from './support/fixtures';

// A rolling upgrade: each node in turn is stopped (cleanly, SIGTERM) and started again, while two signed-in
// tabs stay open. While one node is down the other answers everything: tokens are renewed, a reload signs in
// silently; afterwards both serve the same session. Nobody is asked to sign in, no error is shown.

test('both nodes restarted one after the other: the open tabs keep working throughout', async ({ context, cluster, scenario, traffic }) => {
  const { first, second } = await twoSignedInTabs(context, scenario);
  const signedInAt = Date.now();

  for (const node of cluster.nodes) {
    const other = cluster.nodes.find((each) => each !== node)!;
    await node.stop();
    const stoppedAt = Date.now();
    await untilTheTokenIsRenewed(first, traffic, stoppedAt);
    await open(first, 'Reports');
    await open(second, 'Profile');
    await second.reload();
    await expectWorking(first, 'Reports');
    await expectWorking(second, 'Profile');
    const whileDown = traffic.since(stoppedAt);
    expect(whileDown.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(new Set(whileDown.map((answer) => answer.node))).toEqual(new Set([other.address]));
    await node.start();
  }

  // Both nodes back (each restarted once): the same session goes on, a reload included.
  const backAt = Date.now();
  await untilTheTokenIsRenewed(second, traffic, backAt);
  await open(second, 'Reports');
  await first.reload();
  await expectWorking(first, 'Reports');
  await expectWorking(second, 'Reports');
  const since = traffic.since(signedInAt);
  expect(since.filter((answer) => answer.status >= 500)).toEqual([]);
  expect(since.filter((answer) => answer.path.includes('/login-actions/'))).toEqual([]);
});
