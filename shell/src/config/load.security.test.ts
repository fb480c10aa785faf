// Security round: a config.json with bytes that are not UTF-8 is a listed problem, not a "\uFFFD"
// shown in the navigation.
import { loadConfig } from './load';

test('a config.json with invalid UTF-8 inside a string is refused with a problem that says what to do', async () => {
  const json = new TextEncoder().encode(
    JSON.stringify({
      identityProvider: { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' },
      remotes: [{ name: 'profile', manifest: 'http://localhost:3001/mf-manifest.json', route: '/profile', title: 'Pro#file' }],
    }),
  );
  json[json.indexOf('#'.charCodeAt(0))] = 0xff;
  // as a browser's Response: text() decodes leniently ("\uFFFD"), arrayBuffer() gives the bytes
  const response = { ok: true, status: 200, text: async () => new TextDecoder().decode(json), arrayBuffer: async () => json.buffer };

  const result = await loadConfig(jest.fn(async () => response) as unknown as typeof fetch);

  expect(result).toEqual({ ok: false, problems: ['/config.json is not valid UTF-8. Save it as UTF-8 (every string in it, too).'] });
});
