import { loadConfig } from './load';

const valid = {
  identityProvider: { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' },
  remotes: [],
};

function answering(status: number, body: string): typeof fetch {
  // jsdom has no Response: the loader only reads ok, status and arrayBuffer().
  const bytes = new TextEncoder().encode(body);
  const response = { ok: status >= 200 && status < 300, status, arrayBuffer: async () => bytes.buffer };
  return jest.fn(async () => response) as unknown as typeof fetch;
}

describe('loadConfig', () => {
  it('reads and validates /config.json without caching it', async () => {
    const fetchConfig = answering(200, JSON.stringify(valid));
    const result = await loadConfig(fetchConfig);
    expect(result.ok).toBe(true);
    expect(fetchConfig).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('says when the config is missing', async () => {
    expect(await loadConfig(answering(404, 'Not found'))).toEqual({
      ok: false,
      problems: ["/config.json answered HTTP 404. Deploy a config.json next to the shell's index.html."],
    });
  });

  it('says when the config is not JSON', async () => {
    const result = await loadConfig(answering(200, '{ nope'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]).toMatch(/^\/config.json is not valid JSON/);
  });

  it('says when the server cannot be reached', async () => {
    const failing = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const result = await loadConfig(failing);
    expect(!result.ok && result.problems[0]).toMatch(/could not be fetched \(Failed to fetch\)/);
  });

  it('passes on the validation problems', async () => {
    const result = await loadConfig(answering(200, JSON.stringify({ remotes: [] })));
    expect(!result.ok && result.problems[0]).toBe('identityProvider is missing (see config.schema.json).');
  });
});
