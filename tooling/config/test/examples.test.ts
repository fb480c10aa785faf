import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SCHEMA_FILE, validateShellConfig, validateStandaloneConfig } from '@gatehouse/config';

// Every config.json of the repository names this schema with `$schema` (so an editor completes and checks it) and
// passes it: the shell's, the deployment examples, each remote's own, the scaffold's template.
const ROOT = resolve(__dirname, '../../..');

function exampleConfigs(): string[] {
  const remotes = readdirSync(join(ROOT, 'remotes')).map((name) => join(ROOT, 'remotes', name, 'public/config.json'));
  const deploy = readdirSync(join(ROOT, 'deploy/config')).map((name) => join(ROOT, 'deploy/config', name));
  return [join(ROOT, 'shell/public/config.json'), ...deploy, ...remotes, join(ROOT, 'tooling/scaffold/template/public/config.json.tmpl')];
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
  expect(config.$schema && resolve(dirname(file), config.$schema.replace(/#.*$/, ''))).toBe(
    config.remotes === undefined ? join(ROOT, 'tooling/federation/standalone-config.schema.json') : SCHEMA_FILE,
  );
});

test("the remotes' schema (tooling/federation/standalone-config.schema.json) is this schema's standaloneConfig", () => {
  const standalone = JSON.parse(readFileSync(join(ROOT, 'tooling/federation/standalone-config.schema.json'), 'utf8')) as { $ref: string };
  const [file, pointer] = standalone.$ref.split('#');
  expect(resolve(ROOT, 'tooling/federation', file!)).toBe(SCHEMA_FILE);
  expect(pointer).toBe('/definitions/standaloneConfig');
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { definitions: Record<string, unknown> };
  expect(schema.definitions.standaloneConfig).toBeDefined();
});
