// The generated password of the bootstrap administrator of realm `master` (decisions/0034).

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ADMIN_PASSWORD_FILE } from './common';

/**
 * This checkout's Keycloak administrator password: read from `file`, or generated (24 random bytes, base64url)
 * and written there with mode 0600 the first time. `generated` says whether it was made now (the only time the
 * runner prints it). A file others may read is refused: fix its mode or delete it.
 */
export function adminPassword(file: string = ADMIN_PASSWORD_FILE): { password: string; generated: boolean; file: string } {
  if (existsSync(file)) {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077)
      throw new Error(
        `${file} is readable by others (mode ${mode.toString(8)}): run \`chmod 600 ${file}\`, or delete it for a new password.`,
      );
    const password = readFileSync(file, 'utf8').trim();
    if (password.length < 16) throw new Error(`${file} holds no password of 16 characters or more: delete it for a new one.`);
    return { password, generated: false, file };
  }
  mkdirSync(join(file, '..'), { recursive: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { password, generated: true, file };
}
