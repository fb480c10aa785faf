import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { expect, test } from './support/fixtures';

// Two session-events instances share one PostgreSQL (decisions/0118): the cluster posts the back-channel logout to
// one, the page's stream is held by the other. The end reaches the page through PostgreSQL's LISTEN/NOTIFY, with no
// one touching the page. The budget: the hand-over, the push and the render, on a loaded machine.
const PUSHED_WITHIN_MS = 4_000;

test.use({ sessionEventsInstances: true });

test('a logout received by one session-events instance ends the page whose stream another instance holds', async ({
  page,
  cluster,
  scenario,
}) => {
  const { receiving, streaming } = scenario.sessionEvents!;
  await scenario.signIn(page, '/profile');
  await expect.poll(() => streaming.streams).toBe(1);
  expect(receiving.streams).toBe(0);

  const admin = await signInAsAdmin(cluster.url);
  const [user] = await admin.users.find({ realm: scenario.realm, username: 'alice', exact: true });
  await admin.users.logout({ realm: scenario.realm, id: user!.id! });
  const endedAt = Date.now();
  await expect(page.getByTestId('session-notice')).toHaveText(/^Your session ended/, { timeout: PUSHED_WITHIN_MS });
  expect(Date.now() - endedAt).toBeLessThan(PUSHED_WITHIN_MS);
  await expect(page.getByTestId('user-name')).toHaveCount(0);
  await expect.poll(() => streaming.streams).toBe(0);
});
