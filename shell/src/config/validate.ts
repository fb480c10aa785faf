import { describeSchemaErrors, validateShellConfig } from '@gatehouse/config/validate';
import { settleConfig } from './settle';
import type { ConfigResult, ShellConfig } from './types';

export { REMOTE_DEFAULTS } from './settle';

/**
 * Checks a parsed config.json against config.schema.json (@gatehouse/config) and lists every problem at once (a person
 * fixes them in one go), each naming the field. Unknown keys are problems too: a misspelt `realmRoles` must
 * not silently drop a role requirement. What a schema cannot say (unique names and routes) is checked here.
 */
export function validateConfig(raw: unknown): ConfigResult {
  if (!validateShellConfig(raw)) return { ok: false, problems: describeSchemaErrors(validateShellConfig.errors, raw) };
  return settleConfig(raw as ShellConfig);
}
