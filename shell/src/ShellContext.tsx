import { createContext, useContext } from 'react';
import type { ShellConfig } from './config/types';
import type { RemoteRegistry } from './registry/RemoteRegistry';

/** What every part of the shell needs besides the session (which auth-lib's <AuthProvider> provides). */
export interface Shell {
  readonly config: ShellConfig;
  readonly registry: RemoteRegistry;
}

export const ShellContext = createContext<Shell | null>(null);

/** The shell's services; throws outside <ShellContext.Provider>. */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell() must be used inside <ShellContext.Provider>.');
  return shell;
}
