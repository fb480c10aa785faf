import type { KoaContext } from 'oidc-provider';

import { withParameters } from '../sessions/responseMode.js';

/**
 * oidc-provider post-middleware: in `fragment` mode oidc-provider replaces the redirect URI's own
 * fragment with the response; Keycloak appends the response to it. keycloak-js sends
 * `redirect_uri=location.href`, so an app's `#/route?tab=x` is kept through sign-in.
 */
export async function preserveFragment(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  const route = ctx.oidc?.route;
  const redirectUri = ctx.oidc?.params?.redirect_uri;
  if ((route !== 'authorization' && route !== 'resume') || ctx.status !== 303) return;
  if (typeof redirectUri !== 'string' || !redirectUri.includes('#')) return;
  const location = new URL(String(ctx.response.get('Location') ?? ''), redirectUri);
  const base = new URL(redirectUri);
  base.hash = '';
  const sent = new URL(location);
  sent.hash = '';
  if (sent.href !== base.href || !location.hash) return;
  const response = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  ctx.set('Location', withParameters(redirectUri, 'fragment', response));
}
