import type { Interaction } from 'oidc-provider';

import { levelName } from '../sessions/acr.js';
import { readParams, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { pageLocale } from '../pages/locale.js';
import { loginPage } from '../pages/loginPage.js';
import { stepUpPage } from '../pages/stepUpPage.js';
import { heldLevel, STEP_UP, targetLevel } from '../provider/stepUp.js';
import { passwordAccepted } from '../sessions/passwordCheck.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import type { RealmRequest } from './RealmRequest.js';

const INVALID = 'Invalid username or password.';
const INVALID_PASSWORD = 'Invalid password.';
const TIMED_OUT = 'Your login attempt timed out. Login will start from the beginning.';

/** The parts of an interaction the forms need (oidc-provider's details, or its stored payload). */
export type LoginInteraction = Pick<Interaction, 'uid' | 'prompt' | 'params' | 'session'>;

/**
 * Where a step-up stands: whose password is asked again and the level reached so far. A signed-in visitor
 * sent back for a higher level starts at their session's level; one who just entered the password, at 1.
 */
function stepState(runtime: RealmRuntime, interaction: LoginInteraction): { userId: string; level: number } | undefined {
  const pending = runtime.stepUps.get(interaction.uid);
  if (pending) return pending;
  const accountId = interaction.session?.accountId;
  if (accountId && interaction.prompt.reasons.includes(STEP_UP)) return { userId: accountId, level: heldLevel(interaction.session?.acr) };
  return undefined;
}

/**
 * The page an interaction shows: the step for the next level when a step-up is under way, else the
 * login form (prefilled from `login_hint`), posting to `path` on the frontend URL. Both in the language `ui_locales` asks for, where the realm allows.
 */
export function interactionPage(runtime: RealmRuntime, interaction: LoginInteraction, path: string, error?: string): string {
  const { realm } = runtime;
  // Absolute on the frontend URL, as Keycloak's form action.
  const action = new URL(path, runtime.issuer).href;
  const lang = pageLocale(realm, interaction.params.ui_locales);
  const step = stepState(runtime, interaction);
  const user = step && runtime.user(step.userId);
  if (step && user) {
    const map = runtime.loaMap(runtime.client(String(interaction.params.client_id ?? '')));
    return stepUpPage(realm, { action, username: user.username, level: levelName(step.level + 1, map), error, lang });
  }
  const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
  // Re-authentication (a signed-in browser asked to log in again) shows the session's user, as Keycloak does.
  const current = runtime.user(interaction.session?.accountId)?.username;
  return loginPage(realm, { action, username: current ?? hint, error, lang });
}

/**
 * Keycloak's `login-actions/authenticate?session_code=…&execution=…&client_id=…&tab_id=…`, the
 * action of the login form that the authorization URL answers: POST checks the password and hands
 * the result back to oidc-provider; a failed attempt shows the form again here, as Keycloak does.
 * When the request asks for a level above the password (`acr_values`, `claims`), each missing level
 * is one more form (stepUpPage) before the result goes back, with the level reached as `login.acr`.
 * GET shows the current form (a reload after a failed attempt) or finishes a prompt other than login.
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
  if (req.method !== 'POST') return sendPage(res, 200, interactionPage(runtime, interaction, action));
  const form = await readParams(req, url);
  const target = targetLevel(runtime, interaction.params.client_id, interaction.params) ?? 1;
  const finish = async (userId: string, level: number): Promise<void> => {
    runtime.stepUps.delete(interaction.uid);
    await provider.interactionFinished(req, res, { login: { accountId: userId, acr: String(level) } }, { mergeWithLastSubmission: false });
  };

  if (form.get('step') === 'loa') {
    const step = stepState(runtime, interaction);
    const user = step && runtime.user(step.userId);
    if (!step || !user || !user.enabled) return sendPage(res, 400, errorPage(realm, TIMED_OUT));
    if (!passwordAccepted(runtime, user, form.get('password'))) {
      return sendPage(res, 200, interactionPage(runtime, interaction, action, INVALID_PASSWORD));
    }
    const level = step.level + 1;
    if (level >= target) return finish(user.id, level);
    runtime.stepUps.set(interaction.uid, { userId: user.id, level });
    return sendPage(res, 200, interactionPage(runtime, interaction, action));
  }

  const username = form.get('username') ?? '';
  const user = runtime.userByLogin(username);
  const lang = pageLocale(realm, interaction.params.ui_locales);
  // A browser already signed in re-authenticates its own user (prompt=login, max_age): Keycloak's form checks
  // the password of the session's user whatever name is typed, so another user's credentials are refused.
  const signedIn = interaction.session?.accountId;
  const otherUser = signedIn !== undefined && user?.id !== signedIn;
  if (!user || otherUser || !passwordAccepted(runtime, user, form.get('password'))) {
    return sendPage(res, 200, loginPage(realm, { action, username, error: INVALID, lang }));
  }
  if (!user.enabled) {
    return sendPage(res, 200, loginPage(realm, { action, username, error: 'Account is disabled, contact your administrator.', lang }));
  }
  if (target <= 1) return finish(user.id, 1);
  // The password is level 1; the levels above it follow, one form each.
  runtime.stepUps.set(interaction.uid, { userId: user.id, level: 1 });
  return sendPage(res, 200, interactionPage(runtime, interaction, action));
}
