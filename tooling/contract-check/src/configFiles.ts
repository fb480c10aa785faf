import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeSchemaErrors, validateShellConfig, validateStandaloneConfig, type SchemaValidator } from '@gatehouse/config';

/**
 * Checks the config.json files a deployment serves against config.schema.json (@gatehouse/config), the schema the shell
 * itself validates with: the shell's registry (`<shell>/public/config.json`) and the remote's own config for
 * running alone (`<remote>/public/config.json`). A file that is not there is not checked. Returns one
 * sentence per problem, each naming the file and the field.
 */
export function checkConfigFiles(shellDir: string, remoteDir: string): string[] {
  return [
    ...checkFile(path.join(shellDir, 'public', 'config.json'), validateShellConfig),
    ...checkFile(path.join(remoteDir, 'public', 'config.json'), validateStandaloneConfig),
  ];
}

function checkFile(file: string, validate: SchemaValidator): string[] {
  if (!existsSync(file)) return [];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch {
    return [`${file} is not valid UTF-8: save it as UTF-8 (every string in it, too).`];
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    return [`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`];
  }
  return validate(config) ? [] : describeSchemaErrors(validate.errors, config).map((problem) => `${file}: ${problem}`);
}
