import fs from 'node:fs';
import path from 'node:path';
import { overlayWithDevOrigin, writeOverlay } from './devOrigin';
import { appendToArray } from './jsonEdit';
import type { NewRemoteOptions } from './options';
import { planRemote, type PortProbe, type RemotePlan } from './plan';
import { configSchemaPath, renderBundlerTemplate } from './template';
import { PATHS, readWorkspace } from './workspace';

/** What `newRemote` did: the plan and every file it wrote or changed (relative to the root), or the problems. */
export type NewRemoteResult =
  | { readonly ok: true; readonly plan: RemotePlan; readonly created: readonly string[]; readonly changed: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Creates `remotes/<name>` from the template, registers it in the dev registry and adds its dev address
 * to the demo realm's redirect URIs. Everything is validated and rendered in memory first; files are
 * written only when there is no problem at all.
 */
export async function newRemote(options: NewRemoteOptions, root: string, portIsFree: PortProbe): Promise<NewRemoteResult> {
  let workspace;
  try {
    workspace = readWorkspace(root);
  } catch (error) {
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
  const { plan, problems } = await planRemote(options, workspace, portIsFree);
  if (!plan) return { ok: false, problems };

  const { identityProvider } = workspace.registry;
  let files: Map<string, string>;
  let registryText: string;
  let realmText: string;
  let overlayText: string | null;
  try {
    files = renderBundlerTemplate(
      {
        name: plan.name,
        packageName: plan.packageName,
        title: plan.title,
        route: plan.route,
        port: plan.port,
        identityProviderUrl: identityProvider.url,
        realm: identityProvider.realm,
        clientId: identityProvider.clientId,
        configSchema: configSchemaPath(true),
        apiUrl: plan.api.url,
        apiAudience: plan.api.audience,
        apiScope: plan.api.scope,
      },
      workspace.versions,
      plan.bundler,
    );
    registryText = appendToArray(workspace.registry.text, ['remotes'], registryEntry(plan));
    const client = workspace.realm.clients[identityProvider.clientId]!;
    const redirectUri = `http://localhost:${plan.port}/*`;
    realmText = client.redirectUris.includes(redirectUri)
      ? workspace.realm.text
      : appendToArray(workspace.realm.text, ['clients', client.index, 'redirectUris'], redirectUri);
    // The shell signs in with every registered API's scope, so the realm must know this one (else invalid_scope).
    if (!workspace.realm.clientScopes.includes(plan.api.scope))
      realmText = appendToArray(realmText, ['clientScopes'], audienceScope(plan.name, plan.api));
    if (!client.optionalClientScopes.includes(plan.api.scope))
      realmText = appendToArray(realmText, ['clients', client.index, 'optionalClientScopes'], plan.api.scope);
    // the realm file is for every checkout (committed); the overlay reaches this machine's running dev provider at once
    overlayText = overlayWithDevOrigin(root, { realm: identityProvider.realm, clientId: identityProvider.clientId, port: plan.port });
  } catch (error) {
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }

  const remoteDir = path.join(PATHS.remotes, plan.name);
  const created: string[] = [];
  for (const [relative, text] of files) {
    const target = path.join(root, remoteDir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text, { flag: 'wx' });
    created.push(path.join(remoteDir, relative).split(path.sep).join('/'));
  }
  const changed: string[] = [];
  fs.writeFileSync(path.join(root, PATHS.registry), registryText);
  changed.push(PATHS.registry);
  if (realmText !== workspace.realm.text) {
    fs.writeFileSync(path.join(root, PATHS.realm), realmText);
    changed.push(PATHS.realm);
  }
  if (overlayText !== null) changed.push(writeOverlay(root, overlayText));
  return { ok: true, plan, created, changed };
}

/** The registry entry, in the order and with only the keys that config.json's hand-written entries use. */
function registryEntry(plan: RemotePlan): Record<string, unknown> {
  return {
    name: plan.name,
    manifest: `http://localhost:${plan.port}/mf-manifest.json`,
    route: plan.route,
    title: plan.title,
    ...(plan.realmRoles.length > 0 ? { realmRoles: plan.realmRoles } : {}),
    ...(Object.keys(plan.clientRoles).length > 0 ? { clientRoles: plan.clientRoles } : {}),
    api: plan.api,
  };
}

/**
 * The client scope that grants a token for the remote's API alone: the audience mapper of the demo realm's
 * `profile-api` (decisions/0055). An optional scope of the shell's client, asked for at sign-in and by the
 * downscoped refresh that gives the remote its token.
 */
function audienceScope(name: string, api: RemotePlan['api']): Record<string, unknown> {
  return {
    name: api.scope,
    description: `A token for the ${name} remote's API alone: adds audience ${api.audience} (decisions/0055)`,
    protocol: 'openid-connect',
    attributes: { 'include.in.token.scope': 'true', 'display.on.consent.screen': 'false' },
    protocolMappers: [
      {
        name: `${api.audience} audience`,
        protocol: 'openid-connect',
        protocolMapper: 'oidc-audience-mapper',
        consentRequired: false,
        config: {
          'included.custom.audience': api.audience,
          'access.token.claim': 'true',
          'id.token.claim': 'false',
          'introspection.token.claim': 'true',
          'lightweight.claim': 'false',
        },
      },
    ],
  };
}
