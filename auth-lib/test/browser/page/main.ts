// The test page: the shell's part (createSession from /config.json) and a window handle for tests.
import { createSession, type Session, type SessionConfig, type SessionEvent, type SessionSnapshot } from '../../../src/index';

export interface TestPageHandle {
  session: Session;
  events: SessionEvent[];
  snapshot(): SessionSnapshot;
}

declare global {
  interface Window {
    gatehouse?: TestPageHandle;
  }
}

async function main(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as SessionConfig;
  const session = createSession(config);
  const events: SessionEvent[] = [];
  session.on((event) => events.push(event));
  const status = document.getElementById('status')!;
  session.subscribe(() => {
    status.textContent = session.getSnapshot().status;
  });
  window.gatehouse = { session, events, snapshot: () => session.getSnapshot() };
  status.textContent = (await session.ready()).status;
}

void main();
