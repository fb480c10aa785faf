/**
 * The shell's federated modules, typed for remotes: `gatehouse_shell/auth` is exactly what the shell
 * exposes as `./auth` (shell/src/auth/index.ts), so a remote that uses the contract wrongly — a name the
 * shell does not expose, a wrong argument, a token used as something else — fails `npm run typecheck`.
 * See decisions/0003-typed-shell-auth-module.md for why this is a declaration and not the federation
 * type plugin. A remote includes this file from its tsconfig.json.
 */
declare module 'gatehouse_shell/auth' {
  export * from '@gatehouse/shell/src/auth';
}
