import * as authLib from '@gatehouse/auth-lib';
import { createElement } from 'react';
import type { AuthProviderProps, Session, SessionConfig } from '@gatehouse/auth-lib';

/** `@gatehouse/auth-lib` as its module: every export, values and functions. */
export type AuthLibModule = typeof authLib;

const made = new WeakMap<Session, AuthLibModule>();

/**
 * The `@gatehouse/auth-lib` a remote's code gets when the shell loads it (decisions/0109): the shell's own copy
 * (the same React context, errors and hooks), with the entry points that hand out a session bound to `view`, the
 * remote's own: `getSession()` and `whenSession()` give the view, `authFetch` sends its token, `<AuthProvider>`
 * without a `session` provides it, and `createSession` (which in the shell's copy gives its caller the root
 * session) checks the config as ever and gives the view too. The same view gives the same module.
 */
export function authModuleFor(view: Session, shellsModule?: AuthLibModule): AuthLibModule {
  // the loaded module the shell provides, whole (the shell's own namespace import may list only what it uses)
  const lib = shellsModule ?? authLib;
  const existing = made.get(view);
  if (existing) return existing;
  function AuthProvider({ session, children }: AuthProviderProps) {
    return createElement(lib.AuthProvider, { session: session ?? view, children });
  }
  const module: AuthLibModule = {
    ...lib,
    getSession: () => view,
    whenSession: () => Promise.resolve(view),
    authFetch: (input: RequestInfo | URL, init?: RequestInit) => view.authFetch(input, init),
    createSession: (config: SessionConfig, dependencies?: Parameters<AuthLibModule['createSession']>[1]) => {
      lib.createSession(config, dependencies);
      return view;
    },
    AuthProvider,
  };
  // what a bundler's interop reads of an ES module's namespace, not enumerable (as webpack defines them)
  Object.defineProperty(module, '__esModule', { value: true });
  Object.defineProperty(module, Symbol.toStringTag, { value: 'Module' });
  Object.freeze(module);
  made.set(view, module);
  return module;
}
