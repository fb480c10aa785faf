import type { PageVisibility } from '../session/tabs/tabVisibility';

// What the session watch's tests drive in each tab (sessionWatch.test.ts, sessionWatchWithFrame.test.ts).

const PROVIDER = 'http://localhost:8080';

/** A tab's window, where the provider's third-party-cookie check posts its answer. */
export function providerFrames() {
  const target = new EventTarget();
  return {
    window: target as unknown as Pick<Window, 'addEventListener'>,
    /** what keycloak-js's hidden check frame posts in a browser that blocks third-party cookies */
    cookiesBlocked: () => target.dispatchEvent(new MessageEvent('message', { origin: PROVIDER, data: 'unsupported' })),
  };
}

export function pageVisibility(visible = true) {
  const listeners: ((visible: boolean) => void)[] = [];
  const page: PageVisibility = { visible: () => visible, onChange: (listener) => void listeners.push(listener) };
  return {
    page,
    set: (next: boolean) => {
      visible = next;
      for (const listener of listeners) listener(next);
    },
  };
}

/** Where a tab's visitor input lands (the page's window in a browser); `input()` is one key press. */
export function inputTarget() {
  const target = new EventTarget();
  return {
    target: target as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>,
    input: () => target.dispatchEvent(new Event('keydown')),
  };
}

/** A visitor using `tab` for `seconds`: one input every 10 s, the first at once. */
export async function use(tab: { input: () => void }, seconds: number): Promise<void> {
  for (let t = 0; t < seconds; t += 10) {
    tab.input();
    await jest.advanceTimersByTimeAsync(Math.min(10, seconds - t) * 1000);
  }
}
