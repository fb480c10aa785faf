import { readParams, sendHtml } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { loginPage } from '../pages/loginPage.js';
import type { RealmRequest } from './RealmRequest.js';

const INVALID = 'Invalid username or password.';

/**
 * The login form of an oidc-provider interaction (`/realms/{realm}/login-actions/authenticate/{uid}`):
 * GET shows it, POST checks the password and hands the result back to oidc-provider.
 */
export async function loginEndpoint({ runtime, req, res, url, params }: RealmRequest): Promise<void> {
  const { provider, realm } = runtime;
  let interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    return sendHtml(res, 400, errorPage(realm, 'Your login attempt timed out. Login will start from the beginning.'));
  }
  if (interaction.uid !== params[0]) {
    return sendHtml(res, 400, errorPage(realm, 'Your login attempt timed out. Login will start from the beginning.'));
  }
  const action = url.pathname;
  if (interaction.prompt.name !== 'login') {
    // Keycloak asks no consent: finish any other prompt at once (the grant is created in loadExistingGrant).
    await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
    return;
  }
  if (req.method !== 'POST') {
    const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    return sendHtml(res, 200, loginPage(realm, { action, username: hint }));
  }
  const form = await readParams(req, url);
  const username = form.get('username') ?? '';
  const user = runtime.userByLogin(username);
  if (!user || user.password === undefined || user.password !== form.get('password')) {
    return sendHtml(res, 200, loginPage(realm, { action, username, error: INVALID }));
  }
  if (!user.enabled) {
    return sendHtml(res, 200, loginPage(realm, { action, username, error: 'Account is disabled, contact your administrator.' }));
  }
  await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
}
