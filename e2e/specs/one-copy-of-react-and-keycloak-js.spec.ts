import { expect, test } from '@playwright/test';
import { navigationLinks, openWithSession, stepUpAtProvider } from '../support/flows';
import { countReactRenderers, reactRenderers } from '../support/reactRenderers';
import { USERS } from '../support/system';

// A module's definition in a dev bundle starts with `/***/ "…/file.js"` (webpack names modules after their
// files); a mere reference, `__webpack_require__("…/file.js")`, is not a copy.
const definitionOf = (file: string) => new RegExp(`/\\*\\*\\*/ "[^"]*node_modules/${file.replace(/\./g, '\\.')}"`);
const REACT = definitionOf('react/cjs/react.development.js');
const REACT_DOM = definitionOf('react-dom/cjs/react-dom-client.development.js');
const KEYCLOAK = definitionOf('keycloak-js/lib/keycloak.js');

test('after opening every remote, the page has loaded exactly one copy of React, React DOM and keycloak-js', async ({ page }) => {
  // Admin needs acr "gold": step up first, then count on one fresh page load that opens every remote.
  await openWithSession(page, 'alice', '/admin');
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');

  // Count React renderers the way React DevTools does: every react-dom copy registers with its hook.
  await countReactRenderers(page);
  // Each script's body is asked for as its answer arrives (awaited below): Chromium keeps a body only for a while, and
  // read at the end one could be gone ("No resource with given identifier"), more so with every chunk the page loads.
  const scripts: { url: string; body: Promise<string> }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = response.text();
    body.catch(() => undefined); // failed reads are reported below, in the test's flow
    scripts.push({ url: response.url(), body });
  });

  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText(USERS.alice.name);
  for (const title of ['Profile', 'Admin', 'Reports']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  expect(await navigationLinks(page)).toHaveLength(4);

  // A script whose body cannot be read fails the test: an empty body would count as "no copy here".
  const bodies = await Promise.all(
    scripts.map(async ({ url, body }) => ({
      url,
      body: await body.catch((error: unknown) => {
        throw new Error(`could not read the body of ${url}: ${String(error)}`);
      }),
    })),
  );
  const carrying = (pattern: RegExp) => bodies.filter(({ body }) => pattern.test(body)).map(({ url }) => url);
  expect(carrying(REACT)).toHaveLength(1);
  expect(carrying(REACT_DOM)).toHaveLength(1);
  expect(carrying(KEYCLOAK)).toHaveLength(1);
  expect(await reactRenderers(page)).toBe(1);
});
