import type { BrowserContext, Page } from '@playwright/test';

/**
 * A visitor using `page`: a key press (Shift, which types nothing) every `everyMs` until the returned function is
 * called, or the page closes. The shell's check of the session at the provider runs every `sessionWatchSeconds` only while someone
 * uses a tab, every 4 minutes otherwise (decisions/0090), so a test that bounds a revocation by one check has a visitor.
 */
export function visitorUsing(page: Page, everyMs = 3_000): () => void {
  // A press that meets a page closing is not the visitor's business (caught); the timer ends with the page, so a
  // test that fails before calling the returned function leaves nothing pressing into the next one.
  const press = () => void page.keyboard.press('Shift').catch(() => undefined);
  press();
  const timer = setInterval(press, everyMs);
  page.once('close', () => clearInterval(timer));
  return () => clearInterval(timer);
}

/**
 * A new tab of `context` that the page's code sees as hidden from its first script (a background tab): the Page
 * Visibility API says `hidden`. The session watch checks nothing from such a tab (decisions/0090).
 */
export async function hiddenTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { get: () => true });
  });
  return page;
}
