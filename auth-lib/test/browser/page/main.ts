// The test page: the shell's part (createSession from /config.json) and a window handle for tests.
import { createSession, type Session, type SessionConfig, type SessionEvent, type SessionSnapshot } from '../../../src/index';

export interface TestPageHandle {
  session: Session;
  events: SessionEvent[];
  snapshot(): SessionSnapshot;
  /**
   * the address as the page read it when it loaded, before keycloak-js removed a callback from the address
   * bar: what a router that listens only to its own navigation still holds
   */
  addressAtLoad: string;
}

declare global {
  interface Window {
    gatehouse?: TestPageHandle;
  }
}

const addressAtLoad = `${location.pathname}${location.search}${location.hash}`;

async function main(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as SessionConfig;
  const session = createSession(config);
  const events: SessionEvent[] = [];
  session.on((event) => events.push(event));
  const status = document.getElementById('status')!;
  session.subscribe(() => {
    status.textContent = session.getSnapshot().status;
  });
  window.gatehouse = { session, events, snapshot: () => session.getSnapshot(), addressAtLoad };
  status.textContent = (await session.ready()).status;
}

void main();
