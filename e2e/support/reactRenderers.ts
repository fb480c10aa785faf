import type { Page } from '@playwright/test';

/**
 * Counts the React renderers on a page the way React DevTools does: every react-dom copy that starts registers with
 * `__REACT_DEVTOOLS_GLOBAL_HOOK__`. Install before the page loads; `reactRenderers(page)` reads the count.
 */
export async function countReactRenderers(page: Page): Promise<void> {
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
}

/** How many React renderers have registered on the page since `countReactRenderers`. */
export function reactRenderers(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: { renderers: Map<number, unknown> } }).__REACT_DEVTOOLS_GLOBAL_HOOK__
        .renderers.size,
  );
}
