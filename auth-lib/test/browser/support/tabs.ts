import type { BrowserContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import type { TestApp } from './testApp';

/**
 * Multi-tab helpers over one browser context (tabs share cookies, BroadcastChannel and Web Locks, as a
 * visitor's tabs do). Reused by the bench's `token_requests_per_refresh_5_tabs`.
 */

/** Opens `count` more tabs of the test page and waits until each is signed in (seeded from a live tab). */
export async function openSignedInTabs(context: BrowserContext, app: TestApp, count: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < count; i += 1) {
    const page = await context.newPage();
    await page.goto(`${app.origin}/tab-${i + 2}`);
    await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
    pages.push(page);
  }
  return pages;
}

/**
 * A visitor using `page`: a key press (Shift, which types nothing) every `everyMs` until the returned function
 * is called. The session watch checks every `sessionWatchSeconds` only while someone uses a tab (decisions/0090).
 */
export function visitorUsing(page: Page, everyMs = 3_000): () => void {
  const press = () => void page.keyboard.press('Shift').catch(() => undefined);
  press();
  const timer = setInterval(press, everyMs);
  return () => clearInterval(timer);
}

/** A short label for a token (the end of its signature), so that a failing test prints no usable token. */
export function tokenLabel(token: string): string {
  return `…${token.slice(-10)}`;
}

export interface TokenEndpointLog {
  /** refresh_token grants sent by any tab of the context */
  refreshes: number;
  /** token-endpoint answers with `invalid_grant` */
  invalidGrants: number;
  /** labels of the access tokens the endpoint issued on refresh, in order */
  issued: string[];
}

/** Counts what every tab of `context` sends to the provider's token endpoint from now on. */
export function watchTokenEndpoint(context: BrowserContext, idpUrl: string): TokenEndpointLog {
  const log: TokenEndpointLog = { refreshes: 0, invalidGrants: 0, issued: [] };
  context.on('request', (request) => {
    if (request.url().startsWith(idpUrl) && request.url().endsWith('/token') && request.postData()?.includes('grant_type=refresh_token')) {
      log.refreshes += 1;
    }
  });
  context.on('response', async (response) => {
    if (!response.url().startsWith(idpUrl) || !response.url().endsWith('/token') || response.request().method() !== 'POST') return;
    const body = await response.text().catch(() => '');
    if (body.includes('invalid_grant')) log.invalidGrants += 1;
    const token = /"access_token":"([^"]+)"/.exec(body)?.[1];
    if (token && response.request().postData()?.includes('grant_type=refresh_token')) log.issued.push(tokenLabel(token));
  });
  return log;
}

/**
 * Every tab asks for a token every `intervalMs` until `cycles` new tokens have been issued; returns the
 * labels of the distinct tokens each tab saw, in order.
 */
export async function useTokensInEveryTab(
  pages: readonly Page[],
  log: TokenEndpointLog,
  cycles: number,
  intervalMs = 250,
): Promise<string[][]> {
  const seen = pages.map(() => [] as string[]);
  const deadline = Date.now() + 120_000;
  while (log.issued.length < cycles) {
    if (Date.now() > deadline) throw new Error(`only ${log.issued.length} of ${cycles} refresh cycles in 120 s`);
    const tokens = await Promise.all(
      pages.map(async (page) => tokenLabel(await page.evaluate(() => window.gatehouse!.session.getToken()))),
    );
    tokens.forEach((token, i) => {
      const list = seen[i]!;
      if (list[list.length - 1] !== token) list.push(token);
    });
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return seen;
}
