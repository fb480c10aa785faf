import { AuthError } from '../errors';
import type { Profile } from '../types';
import type { ResolvedConfig } from './config';
import type { KeycloakLike } from './keycloak/keycloak';
import { describeError } from './util/scrub';
import { unreachableError } from './sessionErrors';
import { withTimeout } from './util/withTimeout';

type Fields = Record<string, unknown>;

function pick(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return null;
}

/**
 * Merges the tokens' OIDC claims (the ID token's, which carry what user-info would answer) and the account
 * endpoint (Keycloak's representation) into one Profile. The account endpoint wins where both answer: it is
 * the user's editable record.
 */
export function mergeProfile(claims: Fields, account: Fields): Profile {
  const verified = account.emailVerified ?? claims.email_verified;
  return Object.freeze({
    id: pick(account.id, claims.sub) ?? '',
    username: pick(account.username, claims.preferred_username) ?? '',
    firstName: pick(account.firstName, claims.given_name),
    lastName: pick(account.lastName, claims.family_name),
    email: pick(account.email, claims.email),
    emailVerified: verified === true,
  });
}

/**
 * Reads the account endpoint with the current token, bounded by the config's timeout, and fills what it leaves
 * out from the tokens' claims. No user-info request: the ID token (minted with the session's current tokens)
 * already carries user-info's claims, so opening a profile costs the provider one read, not two with their
 * preflights (decisions/0096).
 */
export async function loadProfile(kc: KeycloakLike, config: ResolvedConfig): Promise<Profile> {
  const claims: Fields = { ...kc.tokenParsed, ...kc.idTokenParsed };
  try {
    const account = await withTimeout(kc.loadUserProfile(), config.timeout, () => unreachableError(config));
    return mergeProfile(claims, { ...account });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError(
      'idp-unreachable',
      `Could not load the profile from the identity provider at ${config.url} (${describeError(error)}). ` +
        `The account endpoint needs the account client's view-profile role (give users default-roles-${config.realm}).`,
      { cause: error },
    );
  }
}
