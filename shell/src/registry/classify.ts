import { RemoteLoadError } from './RemoteLoadError';

/** The step of the federation runtime that failed, as its errorLoadRemote hook reports it. */
export type LoadLifecycle = 'beforeRequest' | 'afterResolve' | 'onLoad' | 'beforeLoadShare' | 'render' | string;

/** Thrown by the shell's manifest fetch when the remote's server answers with an error status. */
export class ManifestHttpError extends Error {
  override readonly name = 'ManifestHttpError';
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url} answered HTTP ${status}`);
  }
}

const AUTH_LIB = '@gatehouse/auth-lib';

/**
 * Turns whatever the federation runtime or the remote threw into a RemoteLoadError whose message says
 * which remote failed and why, in words a person can act on.
 */
export function classifyFailure(remote: string, manifest: string, lifecycle: LoadLifecycle, error: unknown): RemoteLoadError {
  if (error instanceof RemoteLoadError) return error;
  const detail = messageOf(error);
  const make = (reason: RemoteLoadError['reason'], message: string) => new RemoteLoadError(remote, reason, message, { cause: error });

  if (error instanceof ManifestHttpError || /answered HTTP \d+/.test(detail)) {
    return make('manifest-missing', `The remote "${remote}" has no federation manifest at ${manifest} (${detail.replace(/^.*answered /, '')}). Check its "manifest" address in config.json.`);
  }
  if (detail.includes(AUTH_LIB) && /satisf|version/i.test(detail)) {
    return make('incompatible-auth-lib', `The remote "${remote}" needs a version of ${AUTH_LIB} that this shell does not provide: ${detail}`);
  }
  if (lifecycle === 'afterResolve') {
    if (/Failed to fetch|NetworkError|Load failed|ECONNREFUSED|fetch failed/i.test(detail)) {
      return make('unreachable', `The remote "${remote}" is not reachable: ${manifest} did not answer. Is it running?`);
    }
    return make('manifest-missing', `The remote "${remote}" has no valid federation manifest at ${manifest}: ${detail}`);
  }
  if (/RUNTIME-00[128]|Loading (script|chunk)|ScriptExecutionError|failed to load script|remoteEntry/i.test(detail)) {
    return make('code-unavailable', `The code of the remote "${remote}" could not be loaded: ${firstLine(detail)}`);
  }
  return make('code-failed', `The remote "${remote}" failed while starting: ${firstLine(detail)}`);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
