import { acceptsShellConfig } from '@gatehouse/config/accepts';
import { settleConfig } from './settle';
import type { ConfigResult, ShellConfig } from './types';

/**
 * `validateConfig`'s result for the page, with less code on the first page: the schema's verdict comes
 * from a check compiled without the problems' sentences (`@gatehouse/config/accepts`, the same schema); only a
 * config it refuses loads the full validator, which lists every problem in words.
 */
export async function acceptConfig(raw: unknown): Promise<ConfigResult> {
  if (acceptsShellConfig(raw)) return settleConfig(raw as ShellConfig);
  const { validateConfig } = await import(/* webpackChunkName: "config-problems" */ './validate');
  return validateConfig(raw);
}
