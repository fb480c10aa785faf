import { RUNTIME_001, RUNTIME_002, RUNTIME_003, RUNTIME_008, RUNTIME_015 } from '@module-federation/error-codes';
import { RemoteLoadError } from './RemoteLoadError';

/** The step of the federation runtime that failed, as its errorLoadRemote hook reports it. */
export type LoadLifecycle = 'beforeRequest' | 'afterResolve' | 'onLoad' | 'beforeLoadShare' | 'render' | string;

/** Thrown by the shell's manifest fetch when the remote's server answers with an error status. */
export class ManifestHttpError extends Error {
  /** how its message reads, also once the runtime has quoted it in another error */
  static readonly MESSAGE = / answered HTTP \d{3}\b/;
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
 * The federation runtime's codes for a remote entry that could not be fetched, run or initialised. The runtime
 * throws a plain Error whose message carries the code (`… #RUNTIME-008`); it compares them the same way itself.
 */
const CODE_UNAVAILABLE = [RUNTIME_001, RUNTIME_002, RUNTIME_008, RUNTIME_015];

/**
 * The runtime's refusal of a shared singleton in a version a remote does not accept has no code: its message is
 * "Version … of shared singleton module <package> does not satisfy the requirement of <remote> …".
 */
const SINGLETON_REFUSED = 'does not satisfy the requirement';

/**
 * Turns whatever the federation runtime or the remote threw into a RemoteLoadError whose message says
 * which remote failed and why, in words a person can act on.
 */
export function classifyFailure(remote: string, manifest: string, lifecycle: LoadLifecycle, error: unknown): RemoteLoadError {
  if (error instanceof RemoteLoadError) return error;
  const detail = messageOf(error);
  const make = (code: RemoteLoadError['code'], message: string) => new RemoteLoadError(remote, code, message, { cause: error });

  // The runtime passes a failed manifest fetch on inside RUNTIME-003, with only our error's message kept.
  if (error instanceof ManifestHttpError || (detail.includes(RUNTIME_003) && ManifestHttpError.MESSAGE.test(detail))) {
    return make(
      'manifest-missing',
      `The remote "${remote}" has no federation manifest at ${manifest} (${detail.replace(/^.*answered /, '')}). Check its "manifest" address in config.json.`,
    );
  }
  if (detail.includes(AUTH_LIB) && detail.includes(SINGLETON_REFUSED)) {
    return make(
      'incompatible-auth-lib',
      `The remote "${remote}" needs a version of ${AUTH_LIB} that this shell does not provide: ${detail}`,
    );
  }
  // RUNTIME-003 is the manifest fetch failing, whichever step of loadRemote reports it (a second attempt running at
  // the same time may have taken the afterResolve report); it quotes the fetch's own error after its description.
  if (lifecycle === 'afterResolve' || detail.includes(RUNTIME_003)) {
    if (/Failed to fetch|NetworkError|Load failed|ECONNREFUSED|fetch failed/i.test(detail)) {
      return make('unreachable', `The remote "${remote}" is not reachable: ${manifest} did not answer. Is it running?`);
    }
    return make('manifest-missing', `The remote "${remote}" has no valid federation manifest at ${manifest}: ${detail}`);
  }
  if (CODE_UNAVAILABLE.some((code) => detail.includes(code)) || (error instanceof Error && error.name === 'ChunkLoadError')) {
    return make('code-unavailable', `The code of the remote "${remote}" could not be loaded: ${firstLine(detail)}`);
  }
  return make('code-failed', `The remote "${remote}" failed while starting: ${firstLine(detail)}`);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
