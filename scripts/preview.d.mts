// Types for scripts/preview.mjs, so TypeScript callers (e2e/production) can import it.
import type { ChildProcess } from 'node:child_process';

export const REPO_ROOT: string;
export const PREVIEW_CONFIG: string;

export interface PreviewOptions {
  /** the shell's /config.json (default deploy/config/config.preview.json) */
  configFile?: string;
  /** work folder for nginx (default .preview/) */
  previewDir?: string;
  /** the shell build (default shell/dist) */
  shellRoot?: string;
  /** per remote: another build folder, or null to leave that remote's server out ("down") */
  remoteRoots?: Record<string, string | null>;
  /** start the dev identity provider if it is not running (default true) */
  identityProvider?: boolean;
  /** forward only the error output of nginx and the provider */
  quiet?: boolean;
}

export interface Preview {
  stop(): Promise<void>;
  /** resolves with a reason when nginx or the provider exits on its own */
  exited: Promise<string>;
  urls: Record<string, string>;
}

export function startPreview(options?: PreviewOptions): Promise<Preview>;

export function startIdentityProvider(
  identityProvider: { url: string; realm: string },
  options?: { quiet?: boolean },
): Promise<null | { child: ChildProcess; stop(): Promise<void> }>;
