// The module through which the host hands the signed-in user and token to remotes (a shared singleton).
export interface AuthState {
  authenticated: boolean;
  username: string | null;
  token: string | null;
}

export const auth: AuthState = { authenticated: false, username: null, token: null };
