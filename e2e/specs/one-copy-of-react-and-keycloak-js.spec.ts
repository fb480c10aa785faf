import { expect, test } from '@playwright/test';
import { navigationLinks, openSignedIn } from '../support/flows';

// A module's definition in a dev bundle starts with `/***/ "…/file.js"` (webpack names modules after their
// files); a mere reference, `__webpack_require__("…/file.js")`, is not a copy.
const definitionOf = (file: string) => new RegExp(`/\\*\\*\\*/ "[^"]*node_modules/${file.replace(/\./g, '\\.')}"`);
const REACT = definitionOf('react/cjs/react.development.js');
const REACT_DOM = definitionOf('react-dom/cjs/react-dom-client.development.js');
const KEYCLOAK = definitionOf('keycloak-js/lib/keycloak.js');

test('after opening every remote, the page has loaded exactly one copy of React, React DOM and keycloak-js', async ({ page }) => {
  // Count React renderers the way React DevTools does: every react-dom copy registers with this hook.
  await page.addInitScript(() => {
    const renderers = new Map<number, unknown>();
    Object.assign(window, {
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        renderers,
        supportsFiber: true,
        isDisabled: false,
        inject: (renderer: unknown) => {
          renderers.set(renderers.size + 1, renderer);
          return renderers.size;
        },
        checkDCE: () => undefined,
        onCommitFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        onScheduleFiberRoot: () => undefined,
      },
    });
  });
  // Each script's body is read as it arrives: once the page navigates (to the provider's login form and
  // back), Chromium drops the bodies of the page before. A body that cannot be read fails the test: an
  // empty one would count as "no copy here".
  const scripts: Array<Promise<{ url: string; body: string | null; error?: string }>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      response.text().then(
        (body) => ({ url: response.url(), body }),
        (error: unknown) => ({ url: response.url(), body: null, error: String(error) }),
      ),
    );
  });

  await openSignedIn(page, 'alice');
  for (const title of ['Profile', 'Admin', 'Reports']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  expect(await navigationLinks(page)).toHaveLength(4);

  const read = await Promise.all(scripts);
  expect(read.filter(({ error }) => error).map(({ url, error }) => `${url}: ${error}`)).toEqual([]);
  const bodies = read.map(({ url, body }) => ({ url, body: body ?? '' }));
  // The page loads twice (before and after the provider's login form), so a file may arrive twice: one
  // file is one copy; two files defining the module are two.
  const carrying = (pattern: RegExp) => [...new Set(bodies.filter(({ body }) => pattern.test(body)).map(({ url }) => url))];
  expect(carrying(REACT)).toHaveLength(1);
  expect(carrying(REACT_DOM)).toHaveLength(1);
  expect(carrying(KEYCLOAK)).toHaveLength(1);
  expect(await page.evaluate(() => (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: { renderers: Map<number, unknown> } }).__REACT_DEVTOOLS_GLOBAL_HOOK__.renderers.size)).toBe(1);
});
