import { TextDecoder as NodeTextDecoder } from 'util';

// jsdom has no TextDecoder; the browser does
globalThis.TextDecoder ??= NodeTextDecoder as unknown as typeof TextDecoder;

/** The session-events service at the edge of a unit test: fetch and the stream it answers with. */
export const EVENTS_URL = 'https://events.example.test';

/** A response body at the edge: the test pushes SSE text; the request's abort ends it, as fetch's does. */
export function sseBody() {
  const chunks: Uint8Array[] = [];
  let waiting: ((result: ReadableStreamReadResult<Uint8Array>) => void) | null = null;
  let done = false;
  const wake = () => {
    if (!waiting) return;
    const next = chunks.shift();
    if (next) {
      const resolve = waiting;
      waiting = null;
      resolve({ done: false, value: next });
    } else if (done) {
      const resolve = waiting;
      waiting = null;
      resolve({ done: true, value: undefined });
    }
  };
  const reader = {
    read: () =>
      new Promise<ReadableStreamReadResult<Uint8Array>>((resolve) => {
        waiting = resolve;
        wake();
      }),
    cancel: async () => {
      done = true;
      wake();
    },
  };
  return {
    body: { getReader: () => reader } as unknown as ReadableStream<Uint8Array>,
    push: (text: string) => {
      chunks.push(Uint8Array.from(Buffer.from(text)));
      wake();
    },
    end: () => {
      done = true;
      wake();
    },
    get ended() {
      return done;
    },
  };
}

export type Answer = { status: number; headers?: Record<string, string>; stream?: ReturnType<typeof sseBody> } | 'network-error';

/** fetch at the edge: each request takes the next answer (or the last one again). */
export function fakeService(answers: Answer[] = [{ status: 200 }]) {
  const requests: { url: string; init: RequestInit; aborted: () => boolean; stream: ReturnType<typeof sseBody> | null }[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    const signal = init.signal!;
    const request = { url: String(input), init, aborted: () => signal.aborted, stream: null as ReturnType<typeof sseBody> | null };
    requests.push(request);
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const stream = answer.status === 200 ? (answer.stream ?? sseBody()) : null;
    request.stream = stream;
    signal.addEventListener('abort', () => stream?.end());
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      headers: new Headers(answer.headers ?? (answer.status === 200 ? { 'Content-Type': 'text/event-stream' } : {})),
      body: stream?.body ?? null,
    } as unknown as Response;
  });
  const last = () => requests[requests.length - 1]!;
  return { fetch, requests, last };
}

/** One SSE frame. */
export const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** What the service sends first. */
export const READY = `retry: 5000\n\n${frame('ready', { sid: 'sid-1', heartbeatSeconds: 25, exp: 1735689900 })}`;
