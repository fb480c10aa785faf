import { requestConfig } from './early';
import { loadPageConfig } from './load';

/** Like a real Response (jsdom has none): ok, status, and a body that can be read once. */
function singleUseResponse(body: string) {
  let read = false;
  return {
    ok: true,
    status: 200,
    arrayBuffer: async () => {
      if (read) throw new TypeError("Failed to execute 'arrayBuffer' on 'Response': body stream already read");
      read = true;
      return new TextEncoder().encode(body).buffer;
    },
  };
}

test('config.json is requested once, early, and read and validated once for every caller', async () => {
  const body = { identityProvider: { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' }, remotes: [] };
  const fetchConfig = jest.fn(async () => singleUseResponse(JSON.stringify(body))) as unknown as typeof fetch;

  const early = requestConfig(fetchConfig); // the page entry
  const forSignInCheck = loadPageConfig();
  const forBootstrap = loadPageConfig();

  expect(requestConfig()).toBe(early);
  expect(forBootstrap).toBe(forSignInCheck);
  expect(await forBootstrap).toMatchObject({ ok: true });
  expect(fetchConfig).toHaveBeenCalledTimes(1);
  expect(fetchConfig).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
});
