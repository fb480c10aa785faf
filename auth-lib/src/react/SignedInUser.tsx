import { useAuth } from './useAuth';

/** Props of {@link SignedInUser}. */
export interface SignedInUserProps {
  /** where the visitor lands after signing out (default `/`) */
  readonly redirectTo?: string;
}

/**
 * Who is signed in and a "Sign out" button, for a page header; nothing while no one is signed in. The
 * shell's header and a remote's standalone frame both show it (classes `gh-button secondary`, the name
 * under `data-testid="user-name"`).
 */
export function SignedInUser({ redirectTo = '/' }: SignedInUserProps) {
  const { status, user, logout } = useAuth();
  if (status !== 'authenticated') return null;
  return (
    <>
      <span data-testid="user-name">{user?.name}</span>
      <button type="button" className="gh-button secondary" onClick={() => void logout({ redirectTo })}>
        Sign out
      </button>
    </>
  );
}
