import type { Profile } from '../types';

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
