import http from 'node:http';
import { expect, test } from '@playwright/test';
import { openWithSession } from '../../support/flows';
import { SHELL } from '../../support/system';

// Security round: the dev shell sends production's security headers, so a hole that production's
// CSP hides (a <base href> to another origin, framing by another page of the site) shows in development too.

test('the dev shell answers with the production CSP (base-uri, frame-ancestors, the registry origins) and Permissions-Policy', async ({
  request,
}) => {
  const response = await request.get(`${SHELL}/profile`);
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toContain("frame-ancestors 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toMatch(/script-src 'self' http:\/\/localhost:3001 http:\/\/localhost:3002 http:\/\/localhost:3003 http:\/\/localhost:\*;/);
  expect(csp).not.toContain('unsafe');
  expect(response.headers()['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=()');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
});

test('signed in, an injected <base href> to another origin is ignored and the page runs with no CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await openWithSession(page, 'alice', '/profile');
  await expect(page.getByTestId('username')).toHaveText('alice');

  const baseURI = await page.evaluate(() => {
    const base = document.createElement('base');
    base.href = 'http://127.0.0.1:3098/';
    document.head.prepend(base);
    return document.baseURI;
  });

  expect(new URL(baseURI).origin).toBe(SHELL);
  expect(violations.filter((v) => !v.includes('base'))).toEqual([]);
});

test('another page of the same site cannot frame the signed-in shell', async ({ page }) => {
  const framing = http.createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><iframe id="shell" src="${SHELL}/profile"></iframe>`);
  });
  await new Promise<void>((resolve) => framing.listen(3099, 'localhost', resolve));
  try {
    await openWithSession(page, 'alice', '/profile');
    // Chromium refuses the frame by the shell's frame-ancestors and says so in the console
    const refused = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await page.goto('http://localhost:3099/');
    expect((await refused).text()).toContain(SHELL);
    for (const frame of page.frames().filter((f) => f.url().startsWith(SHELL))) {
      expect(await frame.locator('body').innerText()).not.toContain('Alice');
    }
  } finally {
    await new Promise((resolve) => framing.close(resolve));
  }
});
