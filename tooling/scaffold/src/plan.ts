import type { NewRemoteOptions } from './options';
import { parseBundler, type Bundler } from './template';
import { parseClientRole, parsePort, routeProblem, titleProblem } from './values';
import type { Workspace } from './workspace';

/** Everything about the new remote, validated against the repository; nothing is written yet. */
export interface RemotePlan {
  readonly name: string;
  readonly packageName: string;
  readonly title: string;
  readonly route: string;
  readonly port: number;
  readonly realmRoles: readonly string[];
  readonly clientRoles: Readonly<Record<string, readonly string[]>>;
  readonly bundler: Bundler;
  /** the API the remote calls (its registry entry's `api`): a token for it has this audience alone (decisions/0054) */
  readonly api: { readonly url: string; readonly audience: string; readonly scope: string };
}

/** Where the dev registry's APIs are when it names none: the demo API (demo-api/, `npm start` runs it). */
export const DEMO_API_ORIGIN = 'http://localhost:3010';

/**
 * The API a new remote calls, named as the demo remotes name theirs (`profile` → `profile-api`): at `/<name>` of the
 * dev registry's API origin, with the audience and client scope `<name>-api`, which the scaffold adds to the demo realm.
 */
export function apiOf(name: string, workspace: Pick<Workspace, 'registry'>): RemotePlan['api'] {
  const named = workspace.registry.remotes.find((remote) => remote.api !== undefined)?.api?.url;
  const origin = named !== undefined && URL.canParse(named) ? new URL(named).origin : DEMO_API_ORIGIN;
  return { url: `${origin}/${name}`, audience: `${name}-api`, scope: `${name}-api` };
}

/** Answers whether nothing listens on a port of this machine (injectable for tests). */
export type PortProbe = (port: number) => Promise<boolean>;

/** The federation name becomes a JavaScript global and the package and folder name: one word, lower case. */
export const REMOTE_NAME = /^[a-z][a-z0-9_]*$/;
// names of Object.prototype are refused by the shell's schema (a look-up would find the prototype's property)
export const RESERVED = new Set(['shell', 'gatehouse_shell', 'node_modules', 'auth', 'remote', 'remotes', 'constructor', 'prototype']);
export const FIRST_PORT = 3004;
export const LAST_PORT = 3099;

/**
 * Checks every option against the repository and lists every problem at once, so a person fixes them in
 * one go. Only a plan without problems is ever written.
 */
export async function planRemote(
  options: NewRemoteOptions,
  workspace: Workspace,
  portIsFree: PortProbe,
): Promise<{ plan: RemotePlan | null; problems: string[] }> {
  const problems: string[] = [];
  const name = options.name ?? '';
  if (name === '') problems.push('Name the remote: npm run new-remote -- <name>.');
  else if (name.includes('-')) {
    problems.push(
      `"${name}" has a "-": the name becomes the remote's JavaScript name in the federation runtime, so use "${name.replace(/-/g, '_')}" or "${name.replace(/-/g, '')}".`,
    );
  } else if (!REMOTE_NAME.test(name)) {
    problems.push(
      `"${name}" is not a valid remote name: start with a lower-case letter, then lower-case letters, digits or _ (e.g. "billing").`,
    );
  } else if (name.length > 40) problems.push(`"${name}" is longer than 40 characters.`);
  else if (RESERVED.has(name)) problems.push(`"${name}" is reserved; choose another name.`);
  else if (workspace.remoteFolders.includes(name)) problems.push(`remotes/${name} already exists.`);
  else if (workspace.remotes.some((r) => r.name === name))
    problems.push(`The registry (shell/public/config.json) already has a remote named "${name}".`);

  const route = options.route ?? `/${name.replace(/_/g, '-')}`;
  const badRoute = options.route !== null ? routeProblem(route) : null;
  if (badRoute) problems.push(badRoute);
  else if (name !== '') {
    for (const remote of workspace.remotes) {
      if (remote.route === null) continue;
      if (remote.route === route) problems.push(`The route ${route} is taken by the remote "${remote.name}"; pick another with --route.`);
      else if (route.startsWith(`${remote.route}/`) || remote.route.startsWith(`${route}/`)) {
        problems.push(`The route ${route} overlaps ${remote.route} of the remote "${remote.name}"; pick one outside it with --route.`);
      }
    }
  }

  const title = options.title ?? titleOf(name);
  const badTitle = name !== '' ? titleProblem(title) : null;
  if (badTitle) problems.push(badTitle);

  const realmRoles = [...new Set(options.realmRoles)];
  for (const role of realmRoles) {
    if (!workspace.realm.realmRoles.includes(role)) {
      problems.push(
        `The realm role "${role}" is not in the demo realm (it has: ${workspace.realm.realmRoles.join(', ') || 'none'}). Add it to deploy/keycloak/gatehouse-realm.json and give it to a demo user first.`,
      );
    }
  }
  const clientRoles: Record<string, string[]> = {};
  for (const spec of options.clientRoles) {
    const parsed = parseClientRole(spec, workspace.realm.clientRoles);
    if ('problem' in parsed) problems.push(parsed.problem);
    else if (!(clientRoles[parsed.client] ??= []).includes(parsed.role)) clientRoles[parsed.client]!.push(parsed.role);
  }

  const clientId = workspace.registry.identityProvider.clientId;
  if (!workspace.realm.clients[clientId]) {
    problems.push(
      `The demo realm has no client "${clientId}" (the registry's identityProvider.clientId), so the redirect address cannot be added.`,
    );
  }

  const bundler = parseBundler(options.bundler);
  if ('problem' in bundler) problems.push(bundler.problem);

  const port = await choosePort(options.port, workspace, portIsFree, problems);
  if (problems.length > 0 || port === null || 'problem' in bundler) return { plan: null, problems };
  return {
    plan: {
      name,
      packageName: `@gatehouse/remote-${name}`,
      title,
      route,
      port,
      realmRoles,
      clientRoles,
      bundler: bundler.bundler,
      api: apiOf(name, workspace),
    },
    problems,
  };
}

async function choosePort(
  requested: string | null,
  workspace: Workspace,
  portIsFree: PortProbe,
  problems: string[],
): Promise<number | null> {
  if (requested !== null) {
    const parsed = parsePort(requested);
    if ('problem' in parsed) {
      problems.push(parsed.problem);
      return null;
    }
    const { port } = parsed;
    const owner = workspace.remotes.find((r) => r.port === port);
    if (owner)
      problems.push(`Port ${port} is taken by the remote "${owner.name}"; pick another with --port, or leave it out to get a free one.`);
    else if (workspace.usedPorts.has(port))
      problems.push(`Port ${port} is used by the shell or the identity provider; pick another with --port.`);
    else if (!(await portIsFree(port))) problems.push(`Port ${port} is in use on this machine; pick another with --port.`);
    return port;
  }
  for (let port = FIRST_PORT; port <= LAST_PORT; port += 1) {
    if (!workspace.usedPorts.has(port) && (await portIsFree(port))) return port;
  }
  problems.push(`No free port from ${FIRST_PORT} to ${LAST_PORT}; pass one with --port.`);
  return null;
}

/** `order_history` → `Order history`. */
export function titleOf(name: string): string {
  const words = name.split('_').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
