import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { SessionConfig } from '@gatehouse/auth-lib';
import { validateShellConfig, validateStandaloneConfig } from './schema.generated.cjs';
import { REMOTE_DEFAULTS } from './validate';

const SHELL = resolve(__dirname, '../..');
const ROOT = resolve(SHELL, '..');
const SCHEMA_FILE = join(SHELL, 'config.schema.json');
const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as {
  definitions: Record<string, { properties: Record<string, { default?: unknown }>; required?: string[] }>;
};

test('the committed validator is what config.schema.json compiles to', () => {
  expect(() =>
    execFileSync(process.execPath, [join(SHELL, 'scripts/generate-config-validator.mjs'), '--check'], { stdio: 'pipe' }),
  ).not.toThrow();
});

test("identityProvider in the schema has exactly auth-lib's session options, and the same required ones", () => {
  // The compiler holds this list to SessionConfig: a key missing here or not in SessionConfig fails `npm run typecheck`.
  const options: Record<keyof SessionConfig, 'required' | 'optional'> = {
    url: 'required',
    realm: 'required',
    clientId: 'required',
    trustedOrigins: 'optional',
    silentCheckSsoRedirectUri: 'optional',
    checkLoginIframeInterval: 'optional',
    messageReceiveTimeout: 'optional',
    minValidity: 'optional',
    timeout: 'optional',
    expiryWarningSeconds: 'optional',
    idleTimeoutMinutes: 'optional',
    sessionWatchSeconds: 'optional',
    scopes: 'optional',
  };
  const identityProvider = schema.definitions.identityProvider!;
  expect(Object.keys(identityProvider.properties).sort()).toEqual(Object.keys(options).sort());
  expect([...(identityProvider.required ?? [])].sort()).toEqual(
    Object.keys(options)
      .filter((key) => options[key as keyof SessionConfig] === 'required')
      .sort(),
  );
});

test("the schema's defaults for a remote are the ones the shell fills in", () => {
  const remote = schema.definitions.remote!.properties;
  expect({ module: remote.module?.default, realmRoles: remote.realmRoles?.default, clientRoles: remote.clientRoles?.default }).toEqual(
    REMOTE_DEFAULTS,
  );
});

function exampleConfigs(): string[] {
  const remotes = readdirSync(join(ROOT, 'remotes')).map((name) => join(ROOT, 'remotes', name, 'public/config.json'));
  const deploy = readdirSync(join(ROOT, 'deploy/config')).map((name) => join(ROOT, 'deploy/config', name));
  return [join(SHELL, 'public/config.json'), ...deploy, ...remotes, join(ROOT, 'tooling/scaffold/template/public/config.json.tmpl')];
}

test.each(exampleConfigs().map((file) => [relative(ROOT, file), file]))('%s names the schema and passes it', (_, file) => {
  const config = JSON.parse(readFileSync(file, 'utf8')) as { $schema?: string; remotes?: unknown };
  if (file.endsWith('.tmpl')) {
    // The scaffold fills in the path for each place a remote lives (in this workspace, or in a repository of its
    // own, through node_modules/@gatehouse/federation); tooling/scaffold/src/outsideRegistry.test.ts resolves both.
    expect(config.$schema).toBe('{{configSchema}}');
    return;
  }
  const validate = config.remotes === undefined ? validateStandaloneConfig : validateShellConfig;
  expect(validate(config) ? [] : validate.errors).toEqual([]);
  const base = dirname(file);
  expect(config.$schema && resolve(base, config.$schema.replace(/#.*$/, ''))).toBe(
    config.remotes === undefined ? join(ROOT, 'tooling/federation/standalone-config.schema.json') : SCHEMA_FILE,
  );
});
