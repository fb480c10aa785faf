/**
 * The roles a visitor holds for one client. The look-up reads own keys only: a client id such as
 * `constructor` or `__proto__` (from config.json, a remote's code or a token) finds nothing rather than
 * something of `Object.prototype`.
 */
export function heldClientRoles(clientRoles: Readonly<Record<string, readonly string[]>>, clientId: string): readonly string[] {
  if (!Object.hasOwn(clientRoles, clientId)) return [];
  const held = clientRoles[clientId];
  return Array.isArray(held) ? held : [];
}
