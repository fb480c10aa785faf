// Takes the README's pictures into docs/: docs/screenshot-shell.png (alice signed in, on her profile) and, at a
// phone's 360 px and a desktop's 1280 px, Profile and a failed slot (the reports remote's server down).
// `npm run screenshots` (over `npm start` when it is up, else it starts the dev system for the run). Once they are
// taken it writes docs/screenshots.json: what they were made from, which the shell's unit tests compare with the
// sources as they are (scripts/screenshotInputs.cjs, decisions/0115).
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { openSignedIn } from '../support/flows';
import { REMOTES } from '../support/system';
import { writeManifest } from '../../scripts/screenshotInputs.cjs';

const DOCS = path.join(__dirname, '..', '..', 'docs');
const WIDTHS = [
  { width: 360, height: 740 },
  { width: 1280, height: 640 },
];

async function shoot(page: Page, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(DOCS, `screenshot-${name}-${size.width}.png`), fullPage: true });
  }
}

test('screenshots of the signed-in shell: Profile and a failed slot at 360 and 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  await openSignedIn(page, 'alice', '/profile');
  await expect(page.getByTestId('full-name')).toHaveText('Alice Anders');
  await expect(page.getByText('Loading your account details…')).toHaveCount(0);
  // the picture shows the profile API's answer, with the token's audience
  await expect(page.getByTestId('api-answer')).toHaveText('Signed in as alice');
  await expect(page.getByTestId('api-audience')).toHaveText('profile-api');
  await page.screenshot({ path: path.join(DOCS, 'screenshot-shell.png') });
  await shoot(page, 'profile');

  await page.route(`${REMOTES.reports}/**`, (route) => route.abort('connectionrefused'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports is unavailable');
  await page.getByText('Details').click();
  await shoot(page, 'failed-slot');
  writeManifest();
});
