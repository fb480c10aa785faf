import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devRegistry } from '../../devRegistry';

import { tempDir } from './support/tempDir';

// The dev shell's registry with this machine's remotes (shell/config.local.json, decisions/0070): a remote in its own
// repository joins `npm start`'s shell without an edit to the platform's files.
const profile = { name: 'profile', manifest: 'http://localhost:3001/mf-manifest.json', route: '/profile', title: 'Profile' };
const admin = { name: 'admin', manifest: 'http://localhost:3002/mf-manifest.json', route: '/admin', title: 'Admin' };
const billing = { name: 'billing', manifest: 'http://localhost:3004/mf-manifest.json', route: '/billing', title: 'Billing' };

function files(local?: string): { publicConfig: string; localFile: string } {
  const dir = tempDir('dev-registry-');
  const publicConfig = join(dir, 'config.json');
  writeFileSync(publicConfig, JSON.stringify({ identityProvider: { url: 'http://localhost:8080' }, remotes: [profile, admin] }));
  const localFile = join(dir, 'config.local.json');
  if (local !== undefined) writeFileSync(localFile, local);
  return { publicConfig, localFile };
}

test('without config.local.json the registry is public/config.json as it is', () => {
  const { publicConfig, localFile } = files();
  expect(devRegistry(publicConfig, localFile)).toEqual({
    config: { identityProvider: { url: 'http://localhost:8080' }, remotes: [profile, admin] },
    local: false,
  });
});

test("config.local.json's remotes are added, and one named like a registered remote replaces it", () => {
  const moved = { ...admin, manifest: 'http://localhost:3102/mf-manifest.json' };
  const { publicConfig, localFile } = files(JSON.stringify({ remotes: [billing, moved] }));
  const { config, local } = devRegistry(publicConfig, localFile);
  expect(local).toBe(true);
  expect(config.remotes).toEqual([profile, billing, moved]);
  expect(config.identityProvider).toEqual({ url: 'http://localhost:8080' });
});

test('a config.local.json that is not JSON, or has no remotes list, stops with what to do', () => {
  const broken = files('{ "remotes": [');
  expect(() => devRegistry(broken.publicConfig, broken.localFile)).toThrow(/config\.local\.json is not JSON .*: fix it or delete it\./);
  const wrong = files(JSON.stringify({ remote: billing }));
  expect(() => devRegistry(wrong.publicConfig, wrong.localFile)).toThrow(/needs \{ "remotes": \[ … \] \}/);
});
