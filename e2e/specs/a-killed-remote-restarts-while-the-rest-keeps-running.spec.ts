import { expect, test } from '@playwright/test';
import { portOwners } from '@gatehouse/testkit/port-owner';
import { openWithSession } from '../support/flows';
import { REMOTES, SHELL, USERS } from '../support/system';

// Kills the reports remote's dev server under the running `npm start` (this suite's webServer, scripts/start.mjs,
// whose supervisor restarts it). The suite runs one spec at a time (workers: 1), and this spec waits until the
// remote answers again before it ends, so no other spec sees it down.

const REPORTS_PORT = Number(new URL(REMOTES.reports).port);

/** The pid of the process listening on the reports remote's port; fails the test when it cannot be read. */
function reportsServerPid(): number {
  const owners = portOwners(REPORTS_PORT);
  if (!owners || owners.length !== 1 || !owners[0]) {
    throw new Error(`expected one process listening on :${REPORTS_PORT}, found ${JSON.stringify(owners)}`);
  }
  return owners[0].pid;
}

/** Whether `url` answers with a 2xx; false when nothing listens. */
async function answersOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

test('a killed remote dev server is restarted while the shell, the other remotes and the session keep working', async ({ page }) => {
  // A restart rebuilds the remote with webpack, which takes a while on a loaded machine.
  test.setTimeout(240_000);
  await openWithSession(page, 'alice');
  const killed = reportsServerPid();

  process.kill(killed, 'SIGKILL');
  await expect.poll(() => answersOk(`${REMOTES.reports}/mf-manifest.json`)).toBe(false);

  // The shell and the other remotes keep answering; the provider keeps the session: a fresh load of a protected
  // page signs in again without the login form (it would stay on the provider's form otherwise).
  for (const url of [`${SHELL}/config.json`, `${REMOTES.profile}/mf-manifest.json`, `${REMOTES.admin}/mf-manifest.json`]) {
    expect(await answersOk(url), url).toBe(true);
  }
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('username')).toHaveText(USERS.alice.username);
  expect(new URL(page.url()).origin).toBe(SHELL);

  // While it is down its slot says so, and the page around it keeps working.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Reports' }).click();
  const slot = page.getByRole('alert');
  await expect(slot).toContainText('Reports is unavailable');
  await expect(slot).toContainText(`The remote "reports" is not reachable: ${REMOTES.reports}/mf-manifest.json did not answer.`);
  await expect(page.getByTestId('user-name')).toHaveText(USERS.alice.name);
  await nav.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');

  // The supervisor starts it again: a new process answers on the same port.
  await expect.poll(() => answersOk(`${REMOTES.reports}/mf-manifest.json`), { timeout: 180_000, intervals: [250] }).toBe(true);
  expect(reportsServerPid()).not.toBe(killed);

  // …and its slot shows it again on the next navigation into it, with no Retry (the shell heals a failed
  // slot by itself, decisions/0046).
  await nav.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
