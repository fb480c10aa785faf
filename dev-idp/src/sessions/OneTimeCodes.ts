import { randomBytes } from 'node:crypto';

/**
 * Values that may each be used once within a lifespan: the code of a logout confirmation, the `jti` of a
 * DPoP proof. Expired ones are swept; at most `limit` are kept (the oldest go first), so memory stays bounded.
 */
export class OneTimeCodes {
  /** code → expiry (ms since the epoch) */
  readonly #codes = new Map<string, number>();
  readonly #lifespanMs: number;
  readonly #limit: number;

  constructor(lifespanSeconds: number, limit = 20_000) {
    this.#lifespanMs = lifespanSeconds * 1000;
    this.#limit = limit;
  }

  /** A new unguessable code, valid for the lifespan. */
  issue(): string {
    const code = randomBytes(24).toString('base64url');
    this.#remember(code);
    return code;
  }

  /** Uses `code` up: true when it was issued, is unexpired and was not used before. */
  consume(code: string | undefined | null): boolean {
    if (!code) return false;
    const expiry = this.#codes.get(code);
    this.#codes.delete(code);
    return expiry !== undefined && expiry > Date.now();
  }

  /** Records a value seen for the first time (a proof's `jti`): false when it was already seen. */
  firstUse(value: string): boolean {
    const expiry = this.#codes.get(value);
    if (expiry !== undefined && expiry > Date.now()) return false;
    this.#remember(value);
    return true;
  }

  sweep(now = Date.now()): void {
    for (const [code, expiry] of this.#codes) if (expiry <= now) this.#codes.delete(code);
  }

  #remember(code: string): void {
    if (this.#codes.size >= this.#limit) this.#codes.delete(this.#codes.keys().next().value ?? '');
    this.#codes.set(code, Date.now() + this.#lifespanMs);
  }
}
