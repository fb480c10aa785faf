import { expect, test } from '@playwright/test';
import { previewConfig, SHELL, startTopology, type Scenario, type Topology } from './support/topology';

// A deployment with a missing or wrong /config.json: the visitor gets a page that lists the problems.

function brokenConfig() {
  const config = previewConfig();
  config.identityProvider.url = 'not a url';
  config.remotes[0]!.manifest = 'profile.json';
  delete (config.remotes[1] as Record<string, unknown>).route;
  return config;
}

const cases: Array<{ name: string; scenario: Scenario; problems: RegExp[] }> = [
  { name: 'missing (404)', scenario: { config: null }, problems: [/config\.json answered HTTP 404/] },
  { name: 'not JSON', scenario: { config: '{ "identityProvider": ' }, problems: [/not valid JSON/] },
  {
    name: 'invalid fields',
    scenario: { config: brokenConfig() },
    problems: [/identityProvider\.url/, /\("profile"\)\.manifest/, /\("admin"\)\.route is missing/],
  },
];

for (const { name, scenario, problems } of cases) {
  test.describe(`config.json ${name}`, () => {
    let topology: Topology;
    test.beforeAll(async () => {
      topology = await startTopology(scenario);
    });
    test.afterAll(async () => {
      await topology?.stop();
    });

    test('the page lists the problems', async ({ page }) => {
      await page.goto(`${SHELL}/profile`);
      await expect(page.getByRole('heading', { level: 1, name: 'Gatehouse cannot start' })).toBeVisible();
      const alert = page.getByRole('alert');
      // plain words for the visitor; the problems, for whoever deploys the shell, behind "Details"
      await expect(alert).toContainText('its settings have a mistake');
      await alert.getByText('Details').click();
      for (const problem of problems) {
        await expect(alert.getByRole('listitem').filter({ hasText: problem })).toHaveCount(1);
      }
    });
  });
}
