import { createHash, randomBytes } from 'node:crypto';
import { expect, type BrowserContext, type Page, type Request } from '@playwright/test';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { IDP, REALM_URL, SESSION_EVENTS, SHELL, USERS, type DemoUser } from './system';

/** Fills the identity provider's login form (Keycloak's field ids) and waits to be back on `origin`. */
export async function signInAtProvider(page: Page, user: DemoUser, origin = 'http://localhost:3000'): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await fillLoginForm(page, USERS[user].username);
  await page.waitForURL((url) => url.origin === origin);
}

/**
 * Answers the provider's step-up for a level above the password: the demo realm's browser flow (and the dev
 * provider) asks the signed-in user for the password again at the authorization URL. Both show whom it is for
 * in Keycloak's read-only `#kc-attempted-username` and ask for nothing but the password — not the sign-in form
 * again (their page titles differ: Keycloak's says "Sign In").
 */
export async function stepUpAtProvider(page: Page, user: DemoUser, origin = 'http://localhost:3000'): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  await expect(page.locator('#kc-attempted-username')).toHaveValue(USERS[user].username);
  await expect(page.locator('#username')).toHaveCount(0);
  await page.locator('#password').fill(USERS[user].username);
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.origin === origin);
}

/** Opens `path` of the shell signed out, signs in as `user` when sent to the provider, and waits for the page. */
export async function openSignedIn(page: Page, user: DemoUser, path = '/'): Promise<void> {
  if (path === '/') {
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  } else {
    await page.goto(path);
  }
  await signInAtProvider(page, user);
  await expect(page.getByTestId('user-name')).toHaveText(USERS[user].name);
}

/**
 * Signs `user` in at the provider over HTTP in `context`, with no page: the shell's authorization request, the
 * provider's login form posted as a browser posts it (`#kc-form-login`, the dev provider's and Keycloak's), and the
 * provider's answer, a redirect back to the shell with a code. That leaves the provider's session cookies in the
 * context — a session of this test's own, at the password's level, as the login form in a page makes — and nothing
 * else: the code is never redeemed, no token is held, no page of the shell has run.
 */
export async function signInOverHttp(context: BrowserContext, user: DemoUser): Promise<void> {
  // The client and scopes the shell's own sign-in asks for (its config.json), so its check-sso finds them granted.
  const { identityProvider } = (await (await context.request.get(`${SHELL}/config.json`)).json()) as {
    identityProvider: { clientId: string; scopes?: string[] };
  };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${REALM_URL}/protocol/openid-connect/auth`);
  authorize.search = new URLSearchParams({
    client_id: identityProvider.clientId,
    redirect_uri: `${SHELL}/`,
    response_type: 'code',
    response_mode: 'fragment',
    scope: ['openid', ...(identityProvider.scopes ?? [])].join(' '),
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const form = await context.request.get(authorize.href);
  expect(form.status(), `the login form at ${authorize.href}`).toBe(200);
  const action = /<form[^>]*\bid="kc-form-login"[^>]*\baction="([^"]+)"/.exec(await form.text())?.[1];
  expect(action, "the login form's action").toBeTruthy();
  const { username } = USERS[user];
  let answer = await context.request.post(action!.replace(/&amp;/g, '&'), {
    form: { username, password: username, credentialId: '' },
    maxRedirects: 0,
  });
  // Keycloak answers with the redirect to the shell; the dev provider (oidc-provider) first through its resume URL.
  for (let hop = 0; hop < 5; hop += 1) {
    const next = answer.headers().location;
    if (!next || !next.startsWith(IDP)) break;
    answer = await context.request.get(next, { maxRedirects: 0 });
  }
  expect(answer.headers().location ?? '', `the provider's answer to ${username}'s password (HTTP ${answer.status()})`).toMatch(
    new RegExp(`^${SHELL}/#.*\\bcode=`),
  );
}

/**
 * Opens `path` of the shell signed in as `user` without the login form: a session made over HTTP
 * (`signInOverHttp`), which the shell finds with its check-sso on this first load. For a test whose subject is not
 * the sign-in itself (the sign-in through the form is what `openSignedIn` and the sign-in specs prove); one page load
 * instead of three (the shell, the provider's form, the shell again).
 */
export async function openWithSession(page: Page, user: DemoUser, path = '/'): Promise<void> {
  await signInOverHttp(page.context(), user);
  await page.goto(path);
  await expect(page.getByTestId('user-name')).toHaveText(USERS[user].name);
}

/** Records every request the page makes to `origin`. */
export function requestsTo(page: Page, origin: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin === origin) seen.push(request);
  });
  return seen;
}

/** The navigation links of the shell's header, in order. */
export async function navigationLinks(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
}

/**
 * Waits until the page has had no request in flight for 500 ms, as Playwright's `networkidle`, except the
 * session-events stream, which a signed-in page holds open for as long as it lives (decisions/0118) and so would
 * never let `networkidle` come. Call it before the action whose requests it must see through.
 */
export function networkQuiet(page: Page): () => Promise<void> {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const counted = (request: Request) => !request.url().startsWith(`${SESSION_EVENTS}/`);
  page.on('request', (request) => {
    if (!counted(request)) return;
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    if (inFlight.delete(request)) lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async () => {
    await expect.poll(() => inFlight.size === 0 && Date.now() - lastChange >= 500, { intervals: [100] }).toBe(true);
  };
}
