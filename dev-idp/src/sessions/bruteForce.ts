/**
 * Keycloak's brute-force detection (realm settings "Brute force detection", `DefaultBruteForceProtector`,
 * strategy MULTIPLE): failed sign-ins of a user are counted; each `failureFactor`-th failure locks the user
 * out for `waitIncrementSeconds` times the number of lockouts so far (at most `maxFailureWaitSeconds`), and
 * two failures less than `quickLoginCheckMilliSeconds` apart lock for `minimumQuickLoginWaitSeconds`. With
 * `permanentLockout` the user is disabled instead (after `maxTemporaryLockouts` temporary ones, if set).
 * A locked-out user's sign-in is refused like a wrong password; a success clears the count.
 */
export interface BruteForceSettings {
  bruteForceProtected: boolean;
  permanentLockout: boolean;
  maxTemporaryLockouts: number;
  failureFactor: number;
  waitIncrementSeconds: number;
  quickLoginCheckMilliSeconds: number;
  minimumQuickLoginWaitSeconds: number;
  maxFailureWaitSeconds: number;
  maxDeltaTimeSeconds: number;
}

/** Keycloak 26's defaults for a new realm. */
export const BRUTE_FORCE_DEFAULTS: Readonly<BruteForceSettings> = {
  bruteForceProtected: false,
  permanentLockout: false,
  maxTemporaryLockouts: 0,
  failureFactor: 30,
  waitIncrementSeconds: 60,
  quickLoginCheckMilliSeconds: 1000,
  minimumQuickLoginWaitSeconds: 60,
  maxFailureWaitSeconds: 900,
  maxDeltaTimeSeconds: 43200,
};

/** A realm representation's brute-force field that is not what Keycloak accepts. */
export class BruteForceSettingError extends Error {}

interface Failures {
  count: number;
  /** ms since the epoch */
  last: number;
  /** ms since the epoch; sign-in refused before it */
  notBefore: number;
  lockouts: number;
}

export class BruteForceProtector {
  readonly settings: BruteForceSettings = { ...BRUTE_FORCE_DEFAULTS };
  readonly #failures = new Map<string, Failures>();

  /**
   * Takes the brute-force fields of a realm representation (the others are ignored); a field of the wrong
   * type throws a {@link BruteForceSettingError} naming it, and then nothing is changed.
   */
  configure(rep: Record<string, unknown>): void {
    const next = { ...this.settings };
    for (const key of Object.keys(BRUTE_FORCE_DEFAULTS) as Array<keyof BruteForceSettings>) {
      const value = rep[key];
      if (value === undefined || value === null) continue;
      if (typeof BRUTE_FORCE_DEFAULTS[key] === 'boolean') {
        if (typeof value !== 'boolean') throw new BruteForceSettingError(`${key}: expected true or false, got ${JSON.stringify(value)}`);
        (next[key] as boolean) = value;
      } else {
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2_147_483_647) {
          throw new BruteForceSettingError(`${key}: expected a whole number from 0 to 2147483647, got ${JSON.stringify(value)}`);
        }
        (next[key] as number) = value;
      }
    }
    if (next.failureFactor < 1) throw new BruteForceSettingError('failureFactor: expected at least 1');
    Object.assign(this.settings, next);
    if (!next.bruteForceProtected) this.#failures.clear();
  }

  /** Whether the user may not sign in now (a temporary lockout is running). */
  lockedOut(userId: string, now = Date.now()): boolean {
    return this.settings.bruteForceProtected && (this.#failures.get(userId)?.notBefore ?? 0) > now;
  }

  /** Records a failed sign-in; answers `'disable'` when the user is to be locked out permanently. */
  failure(userId: string, now = Date.now()): 'disable' | undefined {
    const s = this.settings;
    if (!s.bruteForceProtected) return undefined;
    const f = this.#failures.get(userId) ?? { count: 0, last: 0, notBefore: 0, lockouts: 0 };
    const delta = f.last > 0 ? now - f.last : 0;
    if (delta > s.maxDeltaTimeSeconds * 1000) Object.assign(f, { count: 0, lockouts: 0 });
    f.count += 1;
    f.last = now;
    this.#failures.set(userId, f);
    const permanentOnly = s.permanentLockout && s.maxTemporaryLockouts === 0;
    if (!permanentOnly) {
      const quick = delta > 0 && delta < s.quickLoginCheckMilliSeconds ? s.minimumQuickLoginWaitSeconds : 0;
      const strategy = f.count % s.failureFactor === 0 ? s.waitIncrementSeconds * (f.count / s.failureFactor) : 0;
      const wait = Math.min(Math.max(quick, strategy), s.maxFailureWaitSeconds);
      if (wait > 0) f.notBefore = now + wait * 1000;
      if (strategy > 0) f.lockouts += 1;
    }
    const permanent = permanentOnly ? f.count >= s.failureFactor : s.permanentLockout && f.lockouts > s.maxTemporaryLockouts;
    if (!permanent) return undefined;
    this.#failures.delete(userId);
    return 'disable';
  }

  /** A successful sign-in clears the user's count. */
  success(userId: string): void {
    this.#failures.delete(userId);
  }

  /** Forgets counts older than `maxDeltaTimeSeconds` whose lockout is over. */
  sweep(now = Date.now()): void {
    const horizon = this.settings.maxDeltaTimeSeconds * 1000;
    for (const [id, f] of this.#failures) if (f.notBefore <= now && now - f.last > horizon) this.#failures.delete(id);
  }
}
