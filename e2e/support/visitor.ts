import type { Page } from '@playwright/test';

/**
 * A visitor using `page`: a key press (Shift, which types nothing) every `everyMs` until the returned function is
 * called. The shell's check of the session at the provider runs every `sessionWatchSeconds` only while someone
 * uses a tab, every 4 minutes otherwise (decisions/0090), so a test that bounds a revocation by one check has a visitor.
 */
export function visitorUsing(page: Page, everyMs = 3_000): () => void {
  const press = () => void page.keyboard.press('Shift').catch(() => undefined);
  press();
  const timer = setInterval(press, everyMs);
  return () => clearInterval(timer);
}
