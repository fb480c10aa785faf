import { createHash } from 'node:crypto';

/** A Keycloak SSO session: one browser's sign-in to a realm, shared by all its clients. */
export interface SsoSession {
  id: string;
  userId: string;
  /** Seconds since the epoch. */
  started: number;
  lastActive: number;
  /**
   * The clients that signed in through this session (Keycloak's client sessions), by client id, each with the issuer
   * it signed in at (the client session's note `iss`): whose back-channel logout URL a logout of the session posts to,
   * with a token of that issuer.
   */
  clients: Map<string, string>;
}

export interface SessionLifespans {
  idle: number;
  max: number;
}

/** `KEYCLOAK_SESSION` cookie value for a session id: base64url(SHA-384(sid)), as Keycloak 26.7's status frame computes it. */
export function sessionCookieValue(sid: string): string {
  return createHash('sha384').update(sid).digest('base64url');
}

const now = (): number => Math.floor(Date.now() / 1000);

/**
 * The realm's SSO sessions and their lifespans (idle and max, read from the realm on every
 * check so an admin update applies at once). A session that ended stays ended: its id is
 * remembered so no late request revives it. `onEnd` lets the owner drop protocol state.
 */
export class SessionRegistry {
  readonly #sessions = new Map<string, SsoSession>();
  /** Ended session ids and when they ended (seconds). */
  readonly #ended = new Map<string, number>();
  readonly #lifespans: () => SessionLifespans;
  readonly #onEnd: (session: SsoSession) => void;

  constructor(lifespans: () => SessionLifespans, onEnd: (session: SsoSession) => void = () => {}) {
    this.#lifespans = lifespans;
    this.#onEnd = onEnd;
  }

  /** How many sessions are active or remembered as ended (what {@link sweep} bounds). */
  get size(): number {
    return this.#sessions.size + this.#ended.size;
  }

  /** Records a new session (or returns the existing one); undefined when that id already ended. */
  open(id: string, userId: string, started = now()): SsoSession | undefined {
    const existing = this.active(id);
    if (existing) return existing;
    // an expired session is ended by `active` on the way: its id never opens again
    if (this.#ended.has(id)) return undefined;
    const session = { id, userId, started, lastActive: now(), clients: new Map<string, string>() };
    this.#sessions.set(id, session);
    return session;
  }

  /** The session if it is still active; an expired one is ended on the way. */
  active(id: string | undefined): SsoSession | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.expiresAt(session) <= now()) {
      this.end(id);
      return undefined;
    }
    return session;
  }

  /**
   * Whether the session with this id has ended (an expired one is ended now, not at the next sweep).
   * False for an id that never opened: a sign-in in progress.
   */
  ended(id: string): boolean {
    this.active(id);
    return this.#ended.has(id);
  }

  /** Records that a client signed in through the session at `issuer` (Keycloak creates its client session). */
  join(id: string, clientId: string, issuer: string): void {
    this.active(id)?.clients.set(clientId, issuer);
  }

  /** Marks activity (sign-in, refresh): restarts the idle timeout. */
  touch(id: string): SsoSession | undefined {
    const session = this.active(id);
    if (session) session.lastActive = now();
    return session;
  }

  /** When the session ends unless touched again: the earlier of idle and max lifespan. */
  expiresAt(session: SsoSession): number {
    const { idle, max } = this.#lifespans();
    return Math.min(session.lastActive + idle, session.started + max);
  }

  /** The active session whose `KEYCLOAK_SESSION` cookie value this is. */
  byCookie(value: string | undefined): SsoSession | undefined {
    if (!value) return undefined;
    for (const session of this.#sessions.values()) {
      if (sessionCookieValue(session.id) === value) return this.active(session.id);
    }
    return undefined;
  }

  forUser(userId: string): SsoSession[] {
    return [...this.#sessions.values()].filter((s) => s.userId === userId && this.active(s.id));
  }

  end(id: string): void {
    const session = this.#sessions.get(id);
    this.#ended.set(id, now());
    if (!session) return;
    this.#sessions.delete(id);
    this.#onEnd(session);
  }

  endForUser(userId: string): number {
    const sessions = [...this.#sessions.values()].filter((s) => s.userId === userId);
    sessions.forEach((s) => this.end(s.id));
    return sessions.length;
  }

  /**
   * Ends every expired session (run periodically so expired browser sessions cannot be resumed),
   * and forgets ended ids once nothing could still present them (after the max lifespan).
   */
  sweep(): void {
    for (const id of [...this.#sessions.keys()]) this.active(id);
    const forgetBefore = now() - this.#lifespans().max;
    for (const [id, endedAt] of this.#ended) if (endedAt <= forgetBefore) this.#ended.delete(id);
  }
}
