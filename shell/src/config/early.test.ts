import { requestConfig } from './early';
import { loadConfig } from './load';

test('config.json is requested once, and the bootstrap reads and validates the early response', async () => {
  const body = { identityProvider: { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' }, remotes: [] };
  // jsdom has no Response: the loader only reads ok, status and text().
  const fetchConfig = jest.fn(async () => ({ ok: true, status: 200, text: async () => JSON.stringify(body) })) as unknown as typeof fetch;

  const early = requestConfig(fetchConfig);
  const result = await loadConfig(() => requestConfig());

  expect(requestConfig()).toBe(early);
  expect(result.ok).toBe(true);
  expect(fetchConfig).toHaveBeenCalledTimes(1);
  expect(fetchConfig).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
});
