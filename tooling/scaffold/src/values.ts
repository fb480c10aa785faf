// The checks of the values a person types, shared by both modes of the scaffold (inside this repository and
// --outside): the generated files embed them in TypeScript, JSX, JSON and a shell command line, so each one is
// held to characters that mean nothing special in any of those places.

/** The shell's own rule for routes (tooling/config/config.schema.json): no "." or ".." segment. */
export const ROUTE = /^(\/(?!\.+(\/|$))[A-Za-z0-9._~-]+)+$/;
/** Titles go into TypeScript string literals and JSX text of the template: no quotes, braces or tags. */
export const TITLE = /^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u;
/** An absolute http(s) URL made only of characters that are plain in a shell command, YAML and JSON. */
const SHELL_URL = /^https?:\/\/[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?(\/[A-Za-z0-9._~/-]*)?$/;

export function titleProblem(title: string): string | null {
  return TITLE.test(title) ? null : `--title "${title}": use letters, digits, spaces, ".", "_" and "-" only.`;
}

export function routeProblem(route: string): string | null {
  return ROUTE.test(route)
    ? null
    : `--route "${route}" is not a route: use a path such as "/billing" (not "/", no trailing slash, no "." or ".." segment).`;
}

/** The port a person typed, or the problem with it. */
export function parsePort(raw: string): { port: number } | { problem: string } {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1024 || port > 65535)
    return { problem: `--port ${raw} is not a port: use a number from 1024 to 65535.` };
  return { port };
}

export function shellUrlProblem(url: string): string | null {
  return SHELL_URL.test(url)
    ? null
    : `--shell-url "${url}" is not the address of a deployed shell: use an absolute http(s) URL such as https://shell.example.com ` +
        '(letters, digits, ".", "-", "_", "~" and "/" only).';
}

/** The registry goes into the new repository's .npmrc and npm's command line: the same plain URL as --shell-url. */
export function registryUrlProblem(url: string): string | null {
  return SHELL_URL.test(url)
    ? null
    : `--registry "${url}" is not the address of an npm registry: use an absolute http(s) URL such as https://npm.example.com/ ` +
        '(letters, digits, ".", "-", "_", "~" and "/" only).';
}

/**
 * `client:role` checked against the roles the realm has per client. The look-up reads own keys only, so a client
 * named "constructor" or "__proto__" is simply unknown.
 */
export function parseClientRole(
  spec: string,
  realmClientRoles: Readonly<Record<string, readonly string[]>>,
): { client: string; role: string } | { problem: string } {
  const [client, role, ...rest] = spec.split(':');
  if (!client || !role || rest.length > 0) return { problem: `--client-role "${spec}" must be client:role, e.g. reports:viewer.` };
  const known = Object.hasOwn(realmClientRoles, client) ? realmClientRoles[client] : undefined;
  if (!Array.isArray(known)) {
    const clients = Object.keys(realmClientRoles).join(', ') || 'none';
    return { problem: `The demo realm has no roles for a client "${client}" (clients with roles: ${clients}).` };
  }
  if (!known.includes(role))
    return { problem: `The client "${client}" has no role "${role}" in the demo realm (it has: ${known.join(', ')}).` };
  return { client, role };
}
