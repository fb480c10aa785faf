import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The widths every page is checked at: a phone and a desktop. */
export const PHONE = { width: 360, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/** axe-core's findings on the page as it is now, one line each: rule, impact, and where. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact ?? 'no impact given'}): ${node.target.join(' ')} — ${node.failureSummary ?? ''}`,
    ),
  );
}

/** A finding on a page that is not ours to fix (Keycloak's own theme), allowed by its rule and element only. */
export interface KnownFinding {
  /** axe-core's rule id, e.g. "label" */
  rule: string;
  /** the element's selector as axe-core reports it, e.g. "#kc-attempted-username" */
  target: string;
  /** why it is allowed */
  reason: string;
}

/**
 * The page in its current state passes axe-core with no violation of any impact, at the phone's width and at
 * the desktop's, except the `known` findings (each exactly one rule on one element). `state` names it in a
 * failure. Ends at the desktop width.
 */
export async function expectAccessibleAtBothWidths(page: Page, state: string, known: readonly KnownFinding[] = []): Promise<void> {
  const isKnown = (finding: string) =>
    known.some(({ rule, target }) => finding.startsWith(`${rule} (`) && finding.includes(`: ${target} — `));
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    expect(
      (await axeViolations(page)).filter((finding) => !isKnown(finding)),
      `${state} at ${size.width} px`,
    ).toEqual([]);
  }
}

/**
 * Visible elements that reach beyond the viewport's width (WCAG 1.4.10 Reflow), as "tag.class text" lines, plus the
 * page's own horizontal scroll. An element inside a box that scrolls or clips horizontally is that box's business
 * (a wide table scrolls inside its own box), so only the box itself is measured.
 */
export async function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide`);
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if ((box.right > width + 0.5 || box.left < -0.5) && !clipped(element)) {
        const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/ /g, '.')}` : ''}`;
        found.push(
          `${name} "${(element.textContent ?? '').trim().slice(0, 40)}" spans ${Math.round(box.left)}–${Math.round(box.right)} px of ${width}`,
        );
      }
    }
    return found;
  });
}
