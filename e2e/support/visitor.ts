import type { Page } from '@playwright/test';

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
