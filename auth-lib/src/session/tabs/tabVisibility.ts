/**
 * Which tabs of the browser are visible, as far as the session watch needs to know: the check of the
 * session at the provider pauses while every tab is hidden and runs at once when one becomes visible.
 * Each tab tells the others when its visibility changes (over the tab channel; the message carries no token).
 */

/** The page's visibility; injected so tests and runtimes without `document` can pass their own. */
export interface PageVisibility {
  visible(): boolean;
  /** `listener(visible)` on each change; a page that is being left reports `false` */
  onChange(listener: (visible: boolean) => void): void;
}

/** The document's visibility, or null where there is no document (the tab then counts as visible). */
export function defaultPageVisibility(): PageVisibility | null {
  if (typeof document !== 'object' || typeof window !== 'object') return null;
  return {
    visible: () => document.visibilityState === 'visible',
    onChange: (listener) => {
      document.addEventListener('visibilitychange', () => listener(document.visibilityState === 'visible'));
      // a tab that closes or navigates away says so, or the others would keep counting it as visible
      window.addEventListener('pagehide', () => listener(false));
    },
  };
}

export type VisibilityMessage = { type: 'watch-visibility'; tab: string; visible: boolean; ask?: boolean };

function newTabId(): string {
  return typeof crypto === 'object' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

export class TabVisibility {
  readonly id = newTabId();
  private own: boolean;
  private readonly others = new Map<string, boolean>();

  constructor(
    page: PageVisibility | null,
    private readonly send: (message: VisibilityMessage) => void,
    /** this tab or another became visible */
    private readonly becameVisible: () => void,
  ) {
    this.own = page ? page.visible() : true;
    page?.onChange((visible) => {
      const was = this.own;
      this.own = visible;
      if (was === visible) return;
      this.announce(false);
      if (visible) this.becameVisible();
    });
  }

  /** Tells the other tabs whether this one is visible; `ask`: they answer with theirs (a tab that starts watching). */
  announce(ask: boolean): void {
    this.send({ type: 'watch-visibility', tab: this.id, visible: this.own, ...(ask ? { ask } : {}) });
  }

  anyVisible(): boolean {
    return this.own || [...this.others.values()].some(Boolean);
  }

  receive(message: Record<string, unknown>): void {
    if (message.type !== 'watch-visibility' || typeof message.tab !== 'string' || typeof message.visible !== 'boolean') return;
    const was = this.others.get(message.tab) === true;
    this.others.set(message.tab, message.visible);
    if (message.ask === true) this.announce(false);
    if (message.visible && !was) this.becameVisible();
  }
}
