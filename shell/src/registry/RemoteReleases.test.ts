/** @jest-environment node */
import { RemoteReleases, type ManifestFetch } from './RemoteReleases';

const URL_ = 'http://localhost:4003/mf-manifest.json';

/** The network at the edge: the manifest text the server has now, and every request made. */
function server(initial: string) {
  const state = { text: initial, down: false, requests: [] as RequestInit[] };
  const fetchManifest: ManifestFetch = async (_url, init) => {
    state.requests.push(init);
    if (state.down) throw new TypeError('Failed to fetch');
    return new Response(state.text, { status: 200 });
  };
  return { state, fetchManifest };
}

/**
 * The remote at release 1, which the runtime loads for `navigation`: its manifest fetch is that navigation's one
 * request.
 */
async function loadedAt(navigation: string | null) {
  const { state, fetchManifest } = server('release 1');
  const releases = new RemoteReleases(fetchManifest);
  releases.loading('reports', navigation);
  await releases.runtimeFetch('reports', URL_, {}, true);
  return { state, releases };
}

describe('RemoteReleases', () => {
  it('revalidates once per navigation, with the browser cache revalidating (no-cache)', async () => {
    const { state, releases } = await loadedAt('a');
    expect(await releases.check('reports', URL_, 'a')).toBe('unchanged'); // the load was a's request
    expect(state.requests).toHaveLength(1);
    const [first, second] = await Promise.all([releases.check('reports', URL_, 'b'), releases.check('reports', URL_, 'b')]);
    expect([first, second]).toEqual(['unchanged', 'unchanged']);
    expect(state.requests).toHaveLength(2);
    expect(state.requests.map((init) => init.cache)).toEqual(['no-cache', 'no-cache']);
  });

  it('counts a prefetch as the first navigation, whatever the router calls it', async () => {
    const { state, releases } = await loadedAt(null);
    expect(releases.checked('reports', 'default')).toBe(true);
    expect(releases.checked('reports', 'next')).toBe(false);
    expect(state.requests).toHaveLength(1);
  });

  it('finds a new release, and hands its manifest to the runtime without a second request', async () => {
    const { state, releases } = await loadedAt('a');
    state.text = 'release 2';
    expect(await releases.check('reports', URL_, 'b')).toBe('changed');
    expect(releases.waiting('reports')).toBe(true);
    expect(await (await releases.runtimeFetch('reports', URL_, {}, true)).text()).toBe('release 2');
    expect(state.requests).toHaveLength(2);
    expect(releases.waiting('reports')).toBe(false);
    expect(await releases.check('reports', URL_, 'c')).toBe('unchanged');
  });

  it('announces a new release once', async () => {
    const { state, releases } = await loadedAt('a');
    state.text = 'release 2';
    await releases.check('reports', URL_, 'b');
    expect(releases.announce('reports')).toBe(true);
    await releases.check('reports', URL_, 'c');
    expect(releases.announce('reports')).toBe(false);
    state.text = 'release 3';
    await releases.check('reports', URL_, 'd');
    expect(releases.announce('reports')).toBe(true);
  });

  it('keeps the release running when the manifest cannot be read', async () => {
    const { state, releases } = await loadedAt('a');
    state.down = true;
    expect(await releases.check('reports', URL_, 'b')).toBe('unknown');
    expect(releases.waiting('reports')).toBe(false);
  });

  it('fetches for a cache-busted address (redeploy recovery) even with a new release waiting, and Retry forgets it', async () => {
    const { state, releases } = await loadedAt('a');
    state.text = 'release 2';
    await releases.check('reports', URL_, 'b');
    state.text = 'release 3';
    expect(await (await releases.runtimeFetch('reports', `${URL_}?gatehouse-redeploy=1`, {}, false)).text()).toBe('release 3');
    releases.forgetFresh('reports');
    expect(await (await releases.runtimeFetch('reports', URL_, {}, true)).text()).toBe('release 3');
  });
});
