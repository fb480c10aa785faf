import { AuthError } from '../errors';
import type { Profile } from '../types';
import type { ResolvedConfig } from './config';
import type { KeycloakLike } from './keycloak';
import { describeError } from './scrub';
import { unreachableError } from './sessionErrors';
import { withTimeout } from './withTimeout';

type Fields = Record<string, unknown>;

function pick(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return null;
}

/**
 * Merges user-info (OIDC claims) and the account endpoint (Keycloak's representation) into one
 * Profile. The account endpoint wins where both answer: it is the user's editable record.
 */
export function mergeProfile(userInfo: Fields, account: Fields): Profile {
  const verified = account.emailVerified ?? userInfo.email_verified;
  return Object.freeze({
    id: pick(account.id, userInfo.sub) ?? '',
    username: pick(account.username, userInfo.preferred_username) ?? '',
    firstName: pick(account.firstName, userInfo.given_name),
    lastName: pick(account.lastName, userInfo.family_name),
    email: pick(account.email, userInfo.email),
    emailVerified: verified === true,
  });
}

/** Reads user-info and the account endpoint with the current token, bounded by the config's timeout. */
export async function loadProfile(kc: KeycloakLike, config: ResolvedConfig): Promise<Profile> {
  try {
    const [userInfo, account] = await withTimeout(Promise.all([kc.loadUserInfo(), kc.loadUserProfile()]), config.timeout, () =>
      unreachableError(config),
    );
    return mergeProfile({ ...userInfo }, { ...account });
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
