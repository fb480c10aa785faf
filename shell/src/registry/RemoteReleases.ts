/** What revalidating a remote's manifest found. `unknown`: it could not be read (the release running stays). */
export type ReleaseCheck = 'unchanged' | 'changed' | 'unknown';

/** Fetches a manifest (injectable: unit tests fake the network at this edge). */
export type ManifestFetch = (url: string, init: RequestInit) => Promise<Response>;

/** The page's first navigation, whose manifest a prefetch fetched before the router had named it. */
const FIRST = null;

/**
 * Which release of each remote the page runs, and whether its server has another (decisions/0046). A
 * release is its `mf-manifest.json` as text: a rebuild names new hashed files, so another text is another
 * release. A navigation into a remote revalidates its manifest once (`cache: 'no-cache'`: the browser
 * sends its validator and a 304 costs one small response); a changed text is kept and handed to the
 * federation runtime when it next asks for the manifest, so loading the new release costs no second request.
 */
export class RemoteReleases {
  /** remote → the manifest text of the release loaded (or loading) */
  private readonly running = new Map<string, string>();
  /** remote → a newer manifest text found by a check, not yet handed to the runtime */
  private readonly fresh = new Map<string, string>();
  /** remote → the last navigation that fetched its manifest, and what that found */
  private readonly checks = new Map<string, { navigation: string | null; result: Promise<ReleaseCheck> }>();
  /** remote → the newer text already announced, so one release is offered once */
  private readonly announced = new Map<string, string>();

  constructor(private readonly fetchManifest: ManifestFetch = (url, init) => fetch(url, init)) {}

  /**
   * A load for `navigation` fetches the remote's manifest itself: that is this navigation's one request.
   * `null`: the load was started before the router named the first navigation (a prefetch).
   */
  loading(remote: string, navigation: string | null): void {
    this.checks.set(remote, { navigation, result: Promise.resolve('unchanged') });
  }

  /** Whether `navigation` has already fetched the remote's manifest (a prefetch counts for the first one). */
  checked(remote: string, navigation: string): boolean {
    const last = this.checks.get(remote);
    if (!last || (last.navigation !== navigation && last.navigation !== FIRST)) return false;
    if (last.navigation === FIRST) this.checks.set(remote, { navigation, result: last.result });
    return true;
  }

  /** Revalidates the manifest at `url`, at most once per navigation; concurrent asks share the request. */
  check(remote: string, url: string, navigation: string): Promise<ReleaseCheck> {
    if (this.checked(remote, navigation)) return this.checks.get(remote)!.result;
    const result = this.revalidate(remote, url);
    this.checks.set(remote, { navigation, result });
    return result;
  }

  private async revalidate(remote: string, url: string): Promise<ReleaseCheck> {
    let text: string;
    try {
      const response = await this.fetchManifest(url, { cache: 'no-cache' });
      if (!response.ok) return 'unknown';
      text = await response.text();
    } catch {
      return 'unknown';
    }
    const running = this.running.get(remote);
    if (running === undefined || text === running) {
      this.fresh.delete(remote);
      return 'unchanged';
    }
    this.fresh.set(remote, text);
    return 'changed';
  }

  /** True the first time a newer release found by a check is announced (a later check of the same one is quiet). */
  announce(remote: string): boolean {
    const fresh = this.fresh.get(remote);
    if (fresh === undefined || this.announced.get(remote) === fresh) return false;
    this.announced.set(remote, fresh);
    return true;
  }

  /** Whether a newer release found by a check waits to be loaded. */
  waiting(remote: string): boolean {
    return this.fresh.has(remote);
  }

  /** Drops a newer text found by a check, so the next load fetches the manifest itself (Retry). */
  forgetFresh(remote: string): void {
    this.fresh.delete(remote);
  }

  /**
   * The federation runtime asks for the remote's manifest: a newer text found by this navigation's check is
   * answered from memory; otherwise the manifest is fetched (revalidated) and its text becomes the release running.
   */
  async runtimeFetch(remote: string, url: string, init: RequestInit, fromCheck: boolean): Promise<Response> {
    const fresh = fromCheck ? this.fresh.get(remote) : undefined;
    if (fresh !== undefined) {
      this.fresh.delete(remote);
      this.running.set(remote, fresh);
      return new Response(fresh, { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    const response = await this.fetchManifest(url, { ...init, cache: 'no-cache' });
    if (response.ok) this.running.set(remote, await response.clone().text());
    return response;
  }
}
