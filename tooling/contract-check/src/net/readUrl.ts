import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';

/** Stable codes of a network read that did not give an answer to look at. */
export type ReadErrorCode = 'READ_TIMEOUT' | 'READ_TOO_LARGE' | 'READ_CROSS_ORIGIN_REDIRECT' | 'READ_UNREACHABLE' | 'READ_BAD_URL';

/** A read the CLIs refuse to go on with; the message says what happened and what to check. */
export class ReadError extends Error {
  constructor(
    readonly code: ReadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** How every network read of the CLIs is bounded and where it may go. */
export interface ReadOptions {
  /** The whole read, headers and body (default 10 s): a server that never answers or never ends is cut off. */
  readonly timeoutMs?: number;
  /** The body's size (default 2 MB); more is refused, not buffered. */
  readonly maxBytes?: number;
  readonly method?: 'GET' | 'HEAD';
  readonly headers?: Readonly<Record<string, string>>;
  /** `follow` (default): same-origin redirects only; `manual`: a 3xx is the answer. */
  readonly redirect?: 'follow' | 'manual';
  /** More CAs to trust (PEM), e.g. a private CA. */
  readonly ca?: string;
  /** Name resolution, e.g. `--resolve` names (default: the system's). */
  readonly lookup?: LookupFunction;
}

/** One answer: the URL it came from (after same-origin redirects), status, headers (lower-case), body. */
export interface ReadResponse {
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 2_000_000;
const MAX_REDIRECTS = 5;

/**
 * Reads a URL with a time limit on the whole exchange, a size limit on the body, and redirects followed only
 * within the URL's origin. The one reader of `gatehouse-contract-check --shell` and `gatehouse-doctor`.
 */
export async function readUrl(url: string, options: ReadOptions = {}): Promise<ReadResponse> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let current = parse(url);
  for (let hops = 0; ; hops++) {
    const response = await readOnce(current, options, deadline);
    const location = response.headers.location;
    if (options.redirect === 'manual' || response.status < 300 || response.status >= 400 || !location) return response;
    const next = parse(new URL(location, current).href);
    if (next.origin !== current.origin) {
      throw new ReadError(
        'READ_CROSS_ORIGIN_REDIRECT',
        `${current.href} redirects to another origin (${next.origin}); not followed. Use the final address directly if it is meant.`,
      );
    }
    if (hops >= MAX_REDIRECTS) throw new ReadError('READ_UNREACHABLE', `${url} redirects more than ${MAX_REDIRECTS} times.`);
    current = next;
  }
}

function parse(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ReadError('READ_BAD_URL', `"${url}" is not a URL; pass a full address such as https://app.example.com.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ReadError('READ_BAD_URL', `${url}: only http and https addresses can be read.`);
  }
  return parsed;
}

function readOnce(url: URL, options: ReadOptions, deadline: number): Promise<ReadResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const controller = new AbortController();
  const remaining = Math.max(0, deadline - Date.now());
  const timer = setTimeout(() => controller.abort(), remaining);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<ReadResponse>((resolve, reject) => {
    const fail = (error: ReadError): void => {
      reject(error);
      controller.abort();
    };
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'gatehouse-cli', ...options.headers },
        signal: controller.signal,
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.ca && url.protocol === 'https:' ? { ca: [...rootCertificates, options.ca] } : {}),
      },
      (response) => {
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return fail(tooLarge(url, maxBytes));
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(tooLarge(url, maxBytes));
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            url: url.href,
            status: response.statusCode ?? 0,
            headers: flatten(response.headers),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) => fail(failure(url, error, controller.signal.aborted, remaining)));
      },
    );
    request.on('error', (error) => fail(failure(url, error, controller.signal.aborted, remaining)));
    request.end();
  }).finally(() => clearTimeout(timer));
}

function tooLarge(url: URL, maxBytes: number): ReadError {
  return new ReadError('READ_TOO_LARGE', `${url.href} sent more than ${maxBytes} bytes; stopped reading. Is this the right address?`);
}

function failure(url: URL, error: Error, timedOut: boolean, timeoutMs: number): ReadError {
  if (timedOut) {
    return new ReadError(
      'READ_TIMEOUT',
      `${url.href} did not answer completely within ${timeoutMs} ms; is the address right and the server healthy?`,
    );
  }
  return new ReadError('READ_UNREACHABLE', `${url.href} did not answer (${error.message}). Is the address right and reachable from here?`);
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
