import { interactionPolicy, type KoaContext } from 'oidc-provider';

import { acrRequest, highestLevel, requestedLevel } from '../sessions/acr.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';

/** Why a signed-in visitor is shown a form again: the reason name of the interaction's login prompt. */
export const STEP_UP = 'step_up';

/**
 * The level an authorization request asks for, capped at the realm's highest (a level the realm does not
 * define cannot be reached: Keycloak's browser flow has no step for it); undefined when it asks for none.
 */
export function targetLevel(runtime: RealmRuntime, clientId: unknown, params: Record<string, unknown>): number | undefined {
  const map = runtime.loaMap(runtime.client(typeof clientId === 'string' ? clientId : undefined));
  const requested = requestedLevel(acrRequest(params.claims, params.acr_values), map);
  if ('invalid' in requested || requested.level === undefined) return undefined;
  return Math.min(requested.level, highestLevel(map));
}

/** The level a signed-in session reached (kept as a number in oidc-provider's `session.acr`). */
export function heldLevel(acr: unknown): number {
  return typeof acr === 'string' && /^\d+$/.test(acr) ? Number(acr) : 1;
}

/**
 * oidc-provider's interaction policy plus Keycloak's step-up: a signed-in visitor whose session is below
 * the requested level gets the login prompt again (reason `step_up`), where the form asks for each
 * missing level. oidc-provider's own essential-acr checks are removed: they compare acr strings, while
 * Keycloak compares levels (a session at "gold" meets a request for "silver").
 */
export function interactionPolicyWithStepUp(runtime: RealmRuntime) {
  const { Check, base } = interactionPolicy;
  const policy = base();
  const login = policy.get('login');
  if (!login) throw new Error('oidc-provider has no login prompt');
  login.checks.remove('essential_acr');
  login.checks.remove('essential_acrs');
  login.checks.add(
    new Check(STEP_UP, 'a higher level of authentication is required', 'interaction_required', (ctx: KoaContext) => {
      const { oidc } = ctx;
      if (!oidc.session?.accountId) return Check.NO_NEED_TO_PROMPT;
      const target = targetLevel(runtime, oidc.client?.clientId, oidc.params ?? {});
      if (target === undefined || heldLevel(oidc.session.acr) >= target) return Check.NO_NEED_TO_PROMPT;
      return Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}
