import pg from 'pg';

import type { SessionEnded } from './logoutToken.js';

/**
 * What the instances of the service share: the logout tokens' `jti` already used, the sessions that ended (so a page
 * that subscribes after the end, or reconnects after missing it, hears it at once), and the ends themselves, pushed to
 * every instance. {@link MemoryBus}: one process alone. {@link PostgresBus}: any number of processes on one database.
 */
export interface Bus {
  /** true when `jti` is new (now remembered for `ttlSeconds`), false when it was used; throws when it cannot tell */
  firstUse(jti: string, ttlSeconds: number): Promise<boolean>;
  /** records the end (remembered for `ttlSeconds`) and tells every instance's listeners; throws when it cannot */
  publish(ended: SessionEnded, ttlSeconds: number): Promise<void>;
  /** the remembered end of session `sid` (or of every session of `sub`), if any; throws when it cannot tell */
  endedBefore(sid: string, sub: string): Promise<SessionEnded | undefined>;
  /** `listener` hears every end published by any instance from now on; returns its removal */
  listen(listener: (ended: SessionEnded) => void): () => void;
  /** `listener` hears when the bus can no longer promise to deliver (the database connection is lost) */
  onLost(listener: (error: Error) => void): () => void;
  close(): Promise<void>;
}

/** Bounds of the in-memory bus: it refuses to remember more (and the service answers 400/503) rather than forget. */
export const MEMORY_LIMIT = 100_000;

export class MemoryBus implements Bus {
  readonly #jtis = new Map<string, number>();
  readonly #ended = new Map<string, { ended: SessionEnded; expiry: number }>();
  readonly #listeners = new Set<(ended: SessionEnded) => void>();

  constructor(
    readonly limit = MEMORY_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  async firstUse(jti: string, ttlSeconds: number): Promise<boolean> {
    const now = this.now();
    const expiry = this.#jtis.get(jti);
    if (expiry !== undefined && expiry > now) return false;
    sweep(this.#jtis, now, this.limit, (e) => e);
    this.#jtis.set(jti, now + ttlSeconds * 1000);
    return true;
  }

  async publish(ended: SessionEnded, ttlSeconds: number): Promise<void> {
    const now = this.now();
    sweep(this.#ended, now, this.limit, (e) => e.expiry);
    const entry = { ended, expiry: now + ttlSeconds * 1000 };
    this.#ended.set(keyOf(ended), entry);
    for (const listener of this.#listeners) listener(ended);
  }

  async endedBefore(sid: string, sub: string): Promise<SessionEnded | undefined> {
    const now = this.now();
    for (const key of [`sid:${sid}`, `sub:${sub}`]) {
      const entry = this.#ended.get(key);
      if (entry && entry.expiry > now) return entry.ended;
    }
    return undefined;
  }

  listen(listener: (ended: SessionEnded) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onLost(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

/** A session's end is keyed by its `sid`; a token that names only the user ends every session of `sub`. */
function keyOf(ended: SessionEnded): string {
  return ended.sid !== undefined ? `sid:${ended.sid}` : `sub:${ended.sub ?? ''}`;
}

function sweep<V>(map: Map<string, V>, now: number, limit: number, expiryOf: (v: V) => number): void {
  if (map.size < limit) return;
  for (const [key, value] of map) if (expiryOf(value) <= now) map.delete(key);
  if (map.size >= limit) throw new Error(`${limit} entries are remembered and none has expired yet`);
}

/** The channel of `LISTEN`/`NOTIFY` the instances share. */
export const CHANNEL = 'gatehouse_session_events';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS session_events_jti (jti text PRIMARY KEY, expires_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS session_events_ended (
  key text PRIMARY KEY, sid text, sub text, iat bigint NOT NULL, jti text NOT NULL, iss text NOT NULL,
  expires_at timestamptz NOT NULL
);`;

export interface PostgresBusOptions {
  /** a `postgres://` URL (libpq's form), as `pg` takes it */
  connectionString: string;
  /** how often expired rows are deleted (ms; default 60 s) */
  sweepEveryMs?: number;
  /** how long to wait before listening again after the connection was lost (ms; default 1 s, doubled up to 30 s) */
  reconnectMs?: number;
}

/**
 * The instances share one PostgreSQL database: `jti`s and ends are rows (`INSERT … ON CONFLICT DO NOTHING`: the first
 * instance to insert a `jti` wins, whichever received the token), and each end is `pg_notify`'d on {@link CHANNEL} in
 * the transaction that records it, so every instance (the publisher's too, through its own `LISTEN`) tells its
 * subscribers. The tables are made at start when missing. Payloads are a few hundred bytes (NOTIFY takes 8000).
 */
export class PostgresBus implements Bus {
  readonly #pool: pg.Pool;
  #listener: pg.Client | undefined;
  readonly #listeners = new Set<(ended: SessionEnded) => void>();
  readonly #lost = new Set<(error: Error) => void>();
  #closed = false;
  #sweep: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #backoff: number;

  private constructor(readonly options: PostgresBusOptions) {
    this.#pool = new pg.Pool({ connectionString: options.connectionString, max: 4, connectionTimeoutMillis: 5000 });
    // an idle pooled client whose server went away: the pool drops it; the next query connects anew
    this.#pool.on('error', () => {});
    this.#backoff = options.reconnectMs ?? 1000;
  }

  /** Connects, makes the tables when missing and listens; throws when the database cannot be reached. */
  static async connect(options: PostgresBusOptions): Promise<PostgresBus> {
    const bus = new PostgresBus(options);
    try {
      await bus.#pool.query(SCHEMA);
      await bus.#listen();
    } catch (error) {
      await bus.close();
      throw error;
    }
    bus.#sweep = setInterval(() => void bus.#deleteExpired().catch(() => {}), options.sweepEveryMs ?? 60_000);
    bus.#sweep.unref();
    return bus;
  }

  async #listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 5000 });
    const lost = (error: Error) => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      for (const listener of this.#lost) listener(error);
      this.#scheduleListen();
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('the database connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      let ended: SessionEnded;
      try {
        ended = JSON.parse(message.payload) as SessionEnded;
      } catch {
        return;
      }
      for (const listener of this.#listeners) listener(ended);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.#listener = client;
    this.#backoff = this.options.reconnectMs ?? 1000;
  }

  #scheduleListen(): void {
    if (this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#listen().catch(() => {
        this.#backoff = Math.min(this.#backoff * 2, 30_000);
        this.#scheduleListen();
      });
    }, this.#backoff);
    this.#retry.unref();
  }

  /** Whether this instance is listening now (a lost connection is being re-made otherwise). */
  get listening(): boolean {
    return this.#listener !== undefined;
  }

  async firstUse(jti: string, ttlSeconds: number): Promise<boolean> {
    const result = await this.#pool.query(
      `INSERT INTO session_events_jti (jti, expires_at) VALUES ($1, now() + make_interval(secs => $2))
       ON CONFLICT (jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE session_events_jti.expires_at <= now()
       RETURNING jti`,
      [jti, ttlSeconds],
    );
    return result.rowCount === 1;
  }

  async publish(ended: SessionEnded, ttlSeconds: number): Promise<void> {
    // one statement: the row and the notification commit together (NOTIFY is delivered at commit)
    await this.#pool.query(
      `WITH saved AS (
         INSERT INTO session_events_ended (key, sid, sub, iat, jti, iss, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
         ON CONFLICT (key) DO UPDATE SET sid = EXCLUDED.sid, sub = EXCLUDED.sub, iat = EXCLUDED.iat, jti = EXCLUDED.jti,
           iss = EXCLUDED.iss, expires_at = EXCLUDED.expires_at
         RETURNING 1)
       SELECT pg_notify($8, $9) FROM saved`,
      [keyOf(ended), ended.sid ?? null, ended.sub ?? null, ended.iat, ended.jti, ended.iss, ttlSeconds, CHANNEL, JSON.stringify(ended)],
    );
  }

  async endedBefore(sid: string, sub: string): Promise<SessionEnded | undefined> {
    const result = await this.#pool.query<{ sid: string | null; sub: string | null; iat: string; jti: string; iss: string }>(
      `SELECT sid, sub, iat, jti, iss FROM session_events_ended WHERE key = ANY($1) AND expires_at > now() LIMIT 1`,
      [[`sid:${sid}`, `sub:${sub}`]],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return { sid: row.sid ?? undefined, sub: row.sub ?? undefined, iat: Number(row.iat), jti: row.jti, iss: row.iss };
  }

  listen(listener: (ended: SessionEnded) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onLost(listener: (error: Error) => void): () => void {
    this.#lost.add(listener);
    return () => this.#lost.delete(listener);
  }

  async #deleteExpired(): Promise<void> {
    await this.#pool.query('DELETE FROM session_events_jti WHERE expires_at <= now()');
    await this.#pool.query('DELETE FROM session_events_ended WHERE expires_at <= now()');
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    clearTimeout(this.#retry);
    const listener = this.#listener;
    this.#listener = undefined;
    this.#listeners.clear();
    await listener?.end().catch(() => {});
    await this.#pool.end().catch(() => {});
  }
}
