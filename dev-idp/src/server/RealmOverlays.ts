import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

import type { Realm } from '../realm/model.js';
import { applyOverlay, loadOverlayFile } from '../realm/overlay.js';
import { RealmFileError } from '../realm/RealmFileError.js';

/** How long a burst of file events (an editor's save, a scaffold's write) settles before the file is read. */
const SETTLE_MS = 50;

interface Output {
  log: (line: string) => void;
  warn: (line: string) => void;
  error: (line: string) => void;
}

/**
 * The realm overlay files (`--realm-overlay`): read at start, and again whenever one changes while the
 * provider runs, so a remote scaffolded meanwhile signs in without a restart. Additions apply at once;
 * an address removed from a file stays accepted until the next start (which reads the files afresh).
 */
export class RealmOverlays {
  readonly #files: string[];
  readonly #realm: (name: string) => Realm | undefined;
  readonly #out: Output;
  readonly #watchers: FSWatcher[] = [];
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(files: readonly string[], realm: (name: string) => Realm | undefined, out: Output) {
    this.#files = files.map((file) => resolve(file));
    this.#realm = realm;
    this.#out = out;
  }

  /**
   * Applies every file once and resolves to what it added, for the start banner; a bad file throws its
   * {@link RealmFileError} (the provider does not start).
   */
  async applyAll(): Promise<string[]> {
    const lines: string[] = [];
    for (const file of this.#files) {
      const line = await this.#apply(file);
      if (line) lines.push(line);
    }
    return lines;
  }

  /** Re-applies a file whenever it is written (its folder is watched: the file may not exist yet). */
  watch(): void {
    for (const file of this.#files) {
      try {
        const watcher = watch(dirname(file), (_event, name) => {
          if (name === null || String(name) === basename(file)) this.#schedule(file);
        });
        watcher.on('error', () => {}); // the folder went away: the next start reports the file
        this.#watchers.push(watcher);
      } catch (error) {
        this.#out.warn(`${file}: cannot watch its folder (${(error as Error).message}); changes apply at the next start`);
      }
    }
  }

  close(): void {
    this.#watchers.forEach((watcher) => watcher.close());
    this.#timers.forEach((timer) => clearTimeout(timer));
  }

  #schedule(file: string): void {
    clearTimeout(this.#timers.get(file));
    const timer = setTimeout(() => {
      this.#timers.delete(file);
      this.#apply(file).then(
        (line) => line && this.#out.log(line),
        (error: unknown) => {
          // while running, a half-written or wrong file must not stop the provider: say what to fix
          if (error instanceof RealmFileError) this.#out.error(`error: ${error.message} (nothing was changed)`);
          else this.#out.error(`error: ${file}: ${(error as Error).message} (nothing was changed)`);
        },
      );
    }, SETTLE_MS);
    timer.unref();
    this.#timers.set(file, timer);
  }

  /** Applies one file; resolves to the line that says what it added, or null. */
  async #apply(file: string): Promise<string | null> {
    const overlay = await loadOverlayFile(file);
    if (!overlay) return null;
    const realm = this.#realm(overlay.realm);
    if (!realm) {
      this.#out.warn(`${basename(file)}: the provider has no realm "${overlay.realm}"; nothing added`);
      return null;
    }
    const { added, warnings } = applyOverlay(realm, overlay);
    warnings.forEach((line) => this.#out.warn(`${basename(file)}: ${line}`));
    return added.length > 0 ? `  realm ${realm.name} (${basename(file)}): added ${added.join(', ')}` : null;
  }
}
