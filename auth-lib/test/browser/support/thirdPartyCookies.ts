import type { BrowserContext } from '@playwright/test';

/**
 * Makes the provider's third-party-cookie check answer `unsupported` in every tab of `context`, as it does
 * in a browser that blocks third-party cookies: keycloak-js then turns its login-status frame off and
 * check-sso becomes a full-page `prompt=none` redirect. keycloak-js runs that check only for a page on another
 * host than the provider's (decisions/0097), so the specs that use this serve their page on 127.0.0.1
 * (`appHost`); Chromium here does not block cookies itself, so the answer of keycloak-js's own check is what
 * decides its behaviour. Returns a counter of the checks answered.
 */
export async function answerThirdPartyCookiesUnsupported(context: BrowserContext, idpUrl: string): Promise<{ checks: number }> {
  const counter = { checks: 0 };
  await context.route(`${idpUrl}/realms/*/protocol/openid-connect/3p-cookies/step1.html`, async (route) => {
    counter.checks += 1;
    await route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><script>parent.postMessage("unsupported", "*")</script>',
    });
  });
  return counter;
}
