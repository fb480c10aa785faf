import { expect, expectWorking, open, test, twoSignedInTabs, untilTheTokenIsRenewed, untilTheFramesAreChecked } from './support/fixtures';

// A Keycloak on its own (the other node down before the visitor signs in: one process, its sessions in the
// database) restarted under two open tabs. Afterwards the pages go on with the same session: the token is
// renewed at the next navigation, a reload signs in silently, nobody is asked to sign in.

test.use({ runningNodes: 'one' });

test('a single Keycloak restarted under open pages: they carry on with the same session', async ({
  context,
  cluster,
  scenario,
  traffic,
}) => {
  const single = cluster.nodes.find((node) => node.running)!;
  expect(cluster.nodes.filter((node) => node.running)).toEqual([single]);
  const { first, second } = await twoSignedInTabs(context, scenario);
  await untilTheFramesAreChecked(traffic, [first, second]);

  await single.stop();
  await single.start();
  const backAt = Date.now();
  await untilTheTokenIsRenewed(first, traffic, backAt);
  await open(first, 'Reports');
  await open(second, 'Profile');
  await second.reload();
  await expectWorking(first, 'Reports');
  await expectWorking(second, 'Profile');
  expect(traffic.since(backAt).filter((answer) => answer.status >= 500)).toEqual([]);
  expect(traffic.since(backAt).filter((answer) => answer.path.includes('/login-actions/'))).toEqual([]);
});
