/** What oidc-provider stores per model (AuthorizationCode, Session, Grant, …). */
export type Payload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string; consumed?: number };

interface Entry {
  payload: Payload;
  expiresAt?: number;
}

/** Most entries one realm keeps; beyond it the oldest are dropped (a flood of abandoned logins cannot grow the process). */
export const STORE_LIMIT = 20_000;

/**
 * The realm's protocol state (codes, grants, refresh tokens, sessions), in memory like the
 * rest of the dev IdP. Shared by all of oidc-provider's model adapters of one realm.
 * Expired entries are dropped when read and by {@link MemoryStore.sweep}; the store never holds
 * more than `limit` entries (the oldest written go first).
 */
export class MemoryStore {
  readonly #entries = new Map<string, Entry>();
  readonly #limit: number;

  constructor(limit = STORE_LIMIT) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops every expired entry. */
  sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#entries.delete(key);
  }

  get(model: string, id: string): Payload | undefined {
    const key = `${model}:${id}`;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(model: string, id: string, payload: Payload, expiresIn?: number): void {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : undefined;
    const key = `${model}:${id}`;
    this.#entries.delete(key); // re-inserted last: the Map's order is the order of writes
    this.#entries.set(key, { payload, expiresAt });
    if (this.#entries.size > this.#limit) this.sweep();
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#limit) break;
      this.#entries.delete(oldest);
    }
  }

  delete(model: string, id: string): void {
    this.#entries.delete(`${model}:${id}`);
  }

  /** The id of the first live entry of a model whose payload matches. */
  find(model: string, match: (payload: Payload) => boolean): string | undefined {
    for (const key of this.#entries.keys()) {
      if (!key.startsWith(`${model}:`)) continue;
      const id = key.slice(model.length + 1);
      const payload = this.get(model, id);
      if (payload && match(payload)) return id;
    }
    return undefined;
  }

  deleteWhere(match: (payload: Payload) => boolean): void {
    for (const [key, entry] of this.#entries) if (match(entry.payload)) this.#entries.delete(key);
  }
}
