// Security round: the contract check refuses a config.json that is not UTF-8, naming the file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkConfigFiles } from './configFiles';

test('a config.json with invalid UTF-8 inside a string is a problem that names the file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-utf8-'));
  try {
    const file = path.join(dir, 'remote', 'public', 'config.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const json = Buffer.from(JSON.stringify({ identityProvider: { url: 'http://localhost:8080', realm: 'gate#house', clientId: 'c' } }));
    json[json.indexOf('#')] = 0xff;
    writeFileSync(file, json);

    expect(checkConfigFiles(path.join(dir, 'shell'), path.join(dir, 'remote'))).toEqual([
      `${file} is not valid UTF-8: save it as UTF-8 (every string in it, too).`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
