import { isDevelopment } from '../../authFetch';
import type { ResolvedConfig } from '../config';
import type { SessionDependencies } from '../dependencies';
import { FrameAvailability, frameUnavailableMessage } from './frameAvailability';
import type { KeycloakLike } from '../keycloak/keycloak';
import { askProvider } from './providerCheck';
import { watchActivity } from '../tokens/sessionExpiry';
import { SessionWatch } from './sessionWatch';
import type { EventEmitter, SnapshotStore } from '../store';
import type { TabCoordinator } from '../tabs/tabCoordinator';
import { defaultPageVisibility } from '../tabs/tabVisibility';

/** The parts of a KeycloakSession its watch works with. */
export interface WatchedSession {
  readonly config: ResolvedConfig;
  readonly origin: string;
  /** `window`: where the provider's frames post their answers (the third-party-cookie check's among them) */
  readonly deps: Pick<SessionDependencies, 'development' | 'visibility' | 'window' | 'activityTarget'>;
  readonly store: SnapshotStore;
  readonly events: EventEmitter;
  readonly tabs: TabCoordinator | null;
  keycloak(): KeycloakLike | null;
  /** the page's token, refreshed through the leading tab when it is due */
  getToken(): Promise<unknown>;
  /** signs this tab out as `session-ended` and drops the tokens */
  endAndDrop(): void;
  /** another tab's check found the session ended: this tab ends it once the provider confirms (endProof.ts) */
  endIfProven(): void;
}

/**
 * Builds the session's watch: knows when keycloak-js's frame is unavailable (and says what to do about it
 * in development), and then asks the provider from the leading tab (sessionWatch.ts, providerCheck.ts), at the
 * rhythm of the visitor's input in this tab and the others.
 */
export function buildSessionWatch(session: WatchedSession): SessionWatch {
  const { config, store, tabs } = session;
  const frame = new FrameAvailability(session.deps.window === undefined ? globalThis.window : session.deps.window, config.url);
  if (session.deps.development ?? isDevelopment()) {
    frame.onUnavailable(() => console.warn(frameUnavailableMessage(config, session.origin)));
  }
  const isSignedIn = () => store.get().status === 'authenticated';
  const visibility = session.deps.visibility === undefined ? defaultPageVisibility() : session.deps.visibility;
  const watch = new SessionWatch(
    {
      isSignedIn,
      isLeader: () => tabs?.isLeader ?? true,
      check: async () => {
        const kc = session.keycloak();
        return kc ? askProvider(kc, config, () => session.getToken(), isSignedIn) : 'unknown';
      },
      ended: () => {
        if (!isSignedIn()) return;
        session.endAndDrop();
        tabs?.send({ type: 'watch-session-ended' });
      },
      endedElsewhere: () => session.endIfProven(),
      send: (message) => tabs?.send(message),
      readWatch: () => store.get().sessionWatch,
      writeWatch: (sessionWatch) => store.set({ sessionWatch }),
      emit: (event) => session.events.emit(event),
    },
    frame,
    { activeSeconds: config.sessionWatchSeconds, idleSeconds: config.sessionWatchIdleSeconds },
    visibility,
  );
  // a visitor's input sets the rhythm of the checks (decisions/0090)
  if (config.sessionWatchSeconds > 0) {
    watchActivity(session.deps.activityTarget === undefined ? globalThis.window : session.deps.activityTarget, () => watch.activity());
  }
  return watch;
}
