/**
 * A browser reduced to what a code flow through the HTML login form needs: a cookie jar
 * (name → value, paths ignored) and redirects followed by hand, so each hop can be inspected.
 */
export class FormBrowser {
  readonly cookies = new Map<string, string>();

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(index + 1).trim());
    }
    return response;
  }

  /** Follows redirects until a response is not one, or until `stopAt` says the URL is the app's. */
  async follow(url: string | URL, stopAt: (url: URL) => boolean, init: RequestInit = {}): Promise<{ url: URL; response: Response }> {
    let current = new URL(url);
    let response = await this.fetch(current, init);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      current = new URL(response.headers.get('location') ?? '', current);
      if (stopAt(current)) return { url: current, response };
      response = await this.fetch(current);
    }
    return { url: current, response };
  }

  /** Submits the login form on `page` (its HTML) and follows to the app's redirect URI. */
  async signIn(pageUrl: URL, page: string, username: string, password: string, stopAt: (url: URL) => boolean) {
    const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`no login form on ${pageUrl.href}`);
    return this.follow(new URL(action.replace(/&amp;|&#38;/g, '&'), pageUrl), stopAt, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }),
    });
  }
}
