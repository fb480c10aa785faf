/**
 * Access tokens (JWTs, checked by signature) that must stop working before they expire: those a
 * grant issued when the grant is revoked (a reused authorization code, as Keycloak revokes them).
 * Entries live until the token would have expired anyway, so the set stays small.
 */
export class RevokedTokens {
  /** grant id → the jti and expiry (seconds) of each access token it issued */
  readonly #issued = new Map<string, Array<{ jti: string; exp: number }>>();
  /** jti → expiry (seconds) */
  readonly #revoked = new Map<string, number>();

  issued(grantId: string, jti: string, exp: number): void {
    const list = this.#issued.get(grantId) ?? [];
    list.push({ jti, exp });
    this.#issued.set(grantId, list);
  }

  revokeGrant(grantId: string): void {
    for (const { jti, exp } of this.#issued.get(grantId) ?? []) this.#revoked.set(jti, exp);
    this.#issued.delete(grantId);
  }

  has(jti: string): boolean {
    return this.#revoked.has(jti);
  }

  /** Forgets tokens that have expired (they are refused by their `exp` anyway). */
  sweep(nowSeconds = Math.floor(Date.now() / 1000)): void {
    for (const [jti, exp] of this.#revoked) if (exp <= nowSeconds) this.#revoked.delete(jti);
    for (const [grant, list] of this.#issued) {
      const live = list.filter((t) => t.exp > nowSeconds);
      if (live.length === 0) this.#issued.delete(grant);
      else this.#issued.set(grant, live);
    }
  }

  get size(): number {
    return this.#issued.size + this.#revoked.size;
  }
}
