import http from 'node:http';
import https from 'node:https';
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';

/** Stable codes of a network read that did not give an answer to look at. */
export type ReadErrorCode =
  'READ_TIMEOUT' | 'READ_TOO_LARGE' | 'READ_CROSS_ORIGIN_REDIRECT' | 'READ_UNREACHABLE' | 'READ_BAD_URL' | 'READ_PRIVATE_ADDRESS';

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
  /**
   * Refuse addresses that are not public (loopback, private networks, link-local such as a cloud's metadata
   * service at 169.254.169.254, unique-local IPv6…): checked on the address actually connected to, after name
   * resolution, so a name that resolves (or re-resolves) to one is refused too. `gatehouse-doctor` sets it unless
   * `--allow-private`: the addresses it reads come from the server it checks.
   */
  readonly refusePrivate?: boolean;
}

/** Addresses that are not on the public internet (IANA special-purpose registries, the ones that reach a host). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP) is loopback, private, link-local or otherwise not public; IPv4-mapped IPv6 counts as IPv4. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return NOT_PUBLIC.check(mapped, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return NOT_PUBLIC.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

function privateRefusal(url: URL, address: string): ReadError {
  return new ReadError(
    'READ_PRIVATE_ADDRESS',
    `${url.href} is at ${address}, a loopback or private address; not read (the address comes from the server being checked). Pass --allow-private to read it, e.g. for a deployment on a private network.`,
  );
}

/** `lookup` (default the system's) that fails on any address that is not public. */
function publicOnly(url: URL, lookup: LookupFunction | undefined): LookupFunction {
  const inner = (lookup ?? systemLookup) as LookupFunction;
  return (hostname, options, callback) => {
    inner(hostname, { ...options, all: true }, ((error: NodeJS.ErrnoException | null, addresses: LookupAddress[] | string) => {
      if (error) return (callback as (e: NodeJS.ErrnoException) => void)(error);
      const list: LookupAddress[] = typeof addresses === 'string' ? [{ address: addresses, family: isIP(addresses) }] : addresses;
      const refused = list.find((a) => isPrivateAddress(a.address));
      if (refused) return (callback as (e: Error) => void)(privateRefusal(url, refused.address));
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      const [first] = list;
      return (callback as (e: null, a: string, f: number) => void)(null, first?.address ?? '', first?.family ?? 4);
    }) as never);
  };
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
    // an IP literal is connected to without a look-up
    if (options.refusePrivate && isPrivateAddress(url.hostname)) return fail(privateRefusal(url, url.hostname.replace(/^\[|\]$/g, '')));
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'gatehouse-cli', ...options.headers },
        signal: controller.signal,
        ...(options.refusePrivate ? { lookup: publicOnly(url, options.lookup) } : options.lookup ? { lookup: options.lookup } : {}),
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
        response.on('error', (error) => fail(failure(url, error, controller.signal.aborted, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)));
      },
    );
    request.on('error', (error) => fail(failure(url, error, controller.signal.aborted, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)));
    request.end();
  }).finally(() => clearTimeout(timer));
}

function tooLarge(url: URL, maxBytes: number): ReadError {
  return new ReadError('READ_TOO_LARGE', `${url.href} sent more than ${maxBytes} bytes; stopped reading. Is this the right address?`);
}

/** `timeoutMs`: the limit of the whole read as given (not what was left of it when this request started). */
function failure(url: URL, error: Error, timedOut: boolean, timeoutMs: number): ReadError {
  if (error instanceof ReadError) return error;
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
