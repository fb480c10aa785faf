/** What the session-events stream needs from its tab's session. */
export interface SessionEventsHost {
  /** the service's public URL (`config.sessionEvents.url`); the stream is `{url}/events` */
  readonly url: string;
  /** whether this tab leads (holds the browser's one stream) */
  isLeader(): boolean;
  isSignedIn(): boolean;
  /** the session's `sid` and the user's `sub`, as the access token names them */
  sessionId(): string | null;
  subject(): string | null;
  /** the page's access token, refreshed when due */
  token(): Promise<string>;
  /** the headers that carry the token: `Authorization: DPoP <token>` and a fresh proof for this method and URL */
  authorization(token: string, method: string, url: string): Promise<Record<string, string>>;
  fetch: typeof fetch;
  /** the service says this session ended: end it as the session watch does when the provider says so, and tell the tabs */
  ended(): void;
  /** 0 ≤ x < 1; default Math.random (the jitter) */
  random?(): number;
}

/** Reconnect waits (session-events/README.md): 1 s doubling to 60 s, ±20 %; reset after a stream open 60 s. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 60_000;
export const RECONNECT_JITTER = 0.2;
export const STABLE_STREAM_MS = 60_000;
/**
 * The most text a stream may send without ending a frame (its frames are a few hundred bytes): past it the stream is
 * dropped and opened again with backoff, rather than buffered without end.
 */
export const MAX_FRAME_CHARS = 64 * 1024;
/** the longest `Retry-After` honoured (a larger one is capped) */
export const RETRY_AFTER_MAX_MS = 300_000;

type Frame = { event: string; data: string };
type Outcome =
  /** reconnect at once (renew: the stream reached its maximum age) */
  | 'now'
  /** reconnect with backoff */
  | 'later'
  /** do not reconnect for this session (ended, or refused twice) */
  | 'stop'
  | { readonly waitMs: number };

/**
 * The browser half of session-events (session-events/README.md): the leading tab holds one Server-Sent Events stream
 * per browser, read with `fetch` and authenticated with the session's DPoP-bound access token and a proof (never a
 * token in the URL). On `session-ended` for this session it ends the session through the session watch's own path,
 * which tells the other tabs (`watch-session-ended`), and they confirm it with the provider (endProof.ts,
 * decisions/0108). The stream only adds to the session watch's checks, which keep running: with the service down,
 * refusing, or not configured, nothing changes. `sync()` after every change of leadership or of the session.
 */
export class SessionEvents {
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** the session the stream (open, or waiting to reconnect) is for */
  private sid: string | null = null;
  /** a session this stream will not ask about again (it ended, or the service refused it twice) */
  private stoppedFor: string | null = null;
  private failures = 0;
  private refusedOnce = false;
  private closed = false;

  constructor(private readonly host: SessionEventsHost) {}

  /** Whether a stream is open or being opened. */
  get connected(): boolean {
    return this.abort !== null;
  }

  /** Opens the stream when this tab leads a signed-in session; closes it otherwise (or for another session). */
  sync(): void {
    if (this.closed) return;
    const sid = this.host.isSignedIn() && this.host.isLeader() ? this.host.sessionId() : null;
    if (sid === null || sid === this.stoppedFor) return this.disconnect();
    if (sid !== this.sid) {
      this.disconnect();
      this.sid = sid;
      this.failures = 0;
      this.refusedOnce = false;
    }
    if (!this.abort && !this.timer) void this.connect();
  }

  close(): void {
    this.closed = true;
    this.disconnect();
  }

  private disconnect(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    this.abort = null;
    this.sid = null;
  }

  private async connect(): Promise<void> {
    const abort = (this.abort = new AbortController());
    const sid = this.sid;
    const openedAt = Date.now();
    let outcome: Outcome;
    try {
      outcome = await this.stream(abort.signal);
    } catch {
      outcome = 'later';
    }
    if (this.abort !== abort || abort.signal.aborted) return; // closed meanwhile (leadership lost, signed out)
    this.abort = null;
    if (outcome === 'stop') {
      this.stoppedFor = sid;
      this.sid = null;
      return;
    }
    if (Date.now() - openedAt >= STABLE_STREAM_MS) this.failures = 0;
    // at once, unless the stream did not even last the first wait (a service answering renew at once)
    if (outcome === 'now' && Date.now() - openedAt >= RECONNECT_FIRST_MS) return this.retryIn(0);
    if (outcome === 'now' && this.refusedOnce) return this.retryIn(0); // the one retry after a 401
    if (typeof outcome === 'object') return this.retryIn(outcome.waitMs);
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** this.failures);
    this.failures += 1;
    const jitter = 1 - RECONNECT_JITTER + 2 * RECONNECT_JITTER * (this.host.random?.() ?? Math.random());
    this.retryIn(Math.round(base * jitter));
  }

  private retryIn(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sync();
    }, ms);
  }

  private async stream(signal: AbortSignal): Promise<Outcome> {
    const url = `${this.host.url}/events`;
    const token = await this.host.token();
    if (signal.aborted) return 'later';
    const headers = { Accept: 'text/event-stream', ...(await this.host.authorization(token, 'GET', url)) };
    if (signal.aborted) return 'later';
    const response = await this.host.fetch(url, { method: 'GET', headers, credentials: 'omit', cache: 'no-store', signal });
    if (response.status === 401) {
      // a fresh token and a new proof, once; refused again: the checks alone (README: 401 again means stop)
      if (this.refusedOnce) return 'stop';
      this.refusedOnce = true;
      return 'now';
    }
    if (response.status === 403) return 'stop';
    if (response.status === 503) {
      const seconds = Number(response.headers?.get('Retry-After'));
      return Number.isFinite(seconds) && seconds >= 0 ? { waitMs: Math.min(seconds * 1000, RETRY_AFTER_MAX_MS) } : 'later';
    }
    if (!response.ok || !response.body) return 'later';
    this.refusedOnce = false;
    return this.read(response.body.getReader(), signal);
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal): Promise<Outcome> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) return 'later';
        if (done) return 'later';
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          const outcome = frame && this.dispatch(frame);
          if (outcome) return outcome;
        }
        if (buffer.length > MAX_FRAME_CHARS) return 'later';
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  /** What a frame means; undefined: keep reading. */
  private dispatch(frame: Frame): Outcome | undefined {
    switch (frame.event) {
      case 'session-ended': {
        const data = parseData(frame.data);
        const sid = typeof data?.sid === 'string' ? data.sid : null;
        const sub = typeof data?.sub === 'string' ? data.sub : null;
        const ours = sid !== null ? sid === this.host.sessionId() : sub !== null && sub === this.host.subject();
        if (!ours) return undefined; // another session's end changes nothing here (the service sends none: defence)
        if (this.host.isSignedIn()) this.host.ended();
        return 'stop';
      }
      case 'renew':
        return 'now';
      case 'unavailable':
      case 'closing':
        return 'later';
      default:
        return undefined; // ready, and whatever a later service adds
    }
  }
}

function parseFrame(text: string): Frame | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 && event === 'message' ? null : { event, data: data.join('\n') };
}

function parseData(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
