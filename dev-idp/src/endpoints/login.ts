import { readParams, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { loginPage } from '../pages/loginPage.js';
import type { RealmRequest } from './RealmRequest.js';

/** Where the login form posts, below `/realms/{realm}` (Keycloak's path). */
export const LOGIN_ACTIONS = '/login-actions/authenticate';
const INVALID = 'Invalid username or password.';
const TIMED_OUT = 'Your login attempt timed out. Login will start from the beginning.';

/**
 * Keycloak's `login-actions/authenticate?session_code=…&execution=…&client_id=…&tab_id=…`, the
 * action of the login form that the authorization URL answers: POST checks the password and hands
 * the result back to oidc-provider; a failed attempt shows the form again here, as Keycloak does.
 * GET shows the form (a reload after a failed attempt) or finishes a prompt other than login.
 */
export async function loginEndpoint({ runtime, req, res, url }: RealmRequest): Promise<void> {
  const { provider, realm } = runtime;
  let interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    return sendPage(res, 400, errorPage(realm, TIMED_OUT));
  }
  if (interaction.uid !== url.searchParams.get('session_code')) return sendPage(res, 400, errorPage(realm, TIMED_OUT));
  const action = `${url.pathname}${url.search}`;
  if (interaction.prompt.name !== 'login') {
    // Keycloak asks no consent: finish any other prompt at once (the grant is created in loadExistingGrant).
    await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
    return;
  }
  if (req.method !== 'POST') {
    const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    return sendPage(res, 200, loginPage(realm, { action, username: hint }));
  }
  const form = await readParams(req, url);
  const username = form.get('username') ?? '';
  const user = runtime.userByLogin(username);
  if (!user || user.password === undefined || user.password !== form.get('password')) {
    return sendPage(res, 200, loginPage(realm, { action, username, error: INVALID }));
  }
  if (!user.enabled) {
    return sendPage(res, 200, loginPage(realm, { action, username, error: 'Account is disabled, contact your administrator.' }));
  }
  await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
}
