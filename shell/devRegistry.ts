import { existsSync, readFileSync } from 'node:fs';

/**
 * The dev shell's registry: public/config.json with the remotes of this machine's git-ignored config.local.json
 * (`{ "remotes": [ …registry entries… ] }`) added, an entry named like a registered remote replacing it
 * (decisions/0070). A team whose remote lives in its own repository attaches it to `npm start`'s shell this way
 * without editing the platform's files; `npm run new-remote -- --outside` prints the entry. Production never reads it.
 */
export interface Registry {
  remotes?: Array<{ name?: unknown }>;
  [key: string]: unknown;
}

export function devRegistry(publicConfigFile: string, localFile: string): { config: Registry; local: boolean } {
  const config = JSON.parse(readFileSync(publicConfigFile, 'utf8')) as Registry;
  if (!existsSync(localFile)) return { config, local: false };
  let local: Registry;
  try {
    local = JSON.parse(readFileSync(localFile, 'utf8')) as Registry;
  } catch (error) {
    throw new Error(`${localFile} is not JSON (${(error as Error).message}): fix it or delete it.`, { cause: error });
  }
  if (!Array.isArray(local.remotes))
    throw new Error(`${localFile} needs { "remotes": [ … ] } (entries as in shell/public/config.json): fix it or delete it.`);
  const added = local.remotes;
  const names = new Set(added.map((remote) => remote.name));
  const remotes = [...(config.remotes ?? []).filter((remote) => !names.has(remote.name)), ...added];
  return { config: { ...config, remotes }, local: true };
}
