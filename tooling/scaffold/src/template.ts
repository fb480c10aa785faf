import fs from 'node:fs';
import path from 'node:path';

/** The template of a new remote: every file of this folder, `.tmpl` dropped from the names, and the kit's files (KIT_FILES). */
export const TEMPLATE_DIR = path.join(__dirname, '..', 'template');

/**
 * Files a new remote gets as they are from `@gatehouse/remote-kit`, the demo remotes' shared parts: the template has
 * no copy of its own, so a new remote starts with the code the demo remotes run and test (src/ApiCard.tsx: TanStack
 * Query over `session.authFetch`). A new remote owns its copy; it does not depend on the kit.
 */
export const KIT_FILES: Readonly<Record<string, string>> = {
  'src/ApiCard.tsx': require.resolve('@gatehouse/remote-kit/ApiCard'),
};

/** The bundlers a remote can be built with; webpack (defineApp) is the default. */
export const BUNDLERS = ['webpack', 'vite', 'rsbuild'] as const;
export type Bundler = (typeof BUNDLERS)[number];

/** `--bundler` as typed: the bundler, or the problem with it. */
export function parseBundler(raw: string | null): { bundler: Bundler } | { problem: string } {
  const bundler = raw ?? 'webpack';
  return (BUNDLERS as readonly string[]).includes(bundler)
    ? { bundler: bundler as Bundler }
    : { problem: `--bundler ${bundler}: use one of ${BUNDLERS.join(', ')} (webpack is the default).` };
}

/**
 * The files of a new remote for a bundler: the template folder's, then the bundler's own (`template-vite/`,
 * `template-rsbuild/`, and their `-outside` variants) over them, without the webpack config.
 */
export function renderBundlerTemplate(
  values: Readonly<Record<string, string | number>>,
  versions: Readonly<Record<string, string>>,
  bundler: Bundler,
  dirs: readonly string[] = [TEMPLATE_DIR],
): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    for (const [file, text] of renderTemplate(values, versions, dir)) files.set(file, text);
    if (bundler === 'webpack') continue;
    const own = `${dir}-${bundler}`;
    if (!fs.existsSync(own)) continue;
    files.delete('webpack.config.ts');
    for (const [file, text] of renderTemplate(values, versions, own)) files.set(file, text);
  }
  if (bundler !== 'webpack') files.delete('webpack.config.ts');
  return files;
}

/**
 * The schema of a remote's `public/config.json`, as `$schema` names it from that file: the copy
 * `@gatehouse/federation` ships, in the node_modules of the remote's repository (a remote in its own
 * repository) or of this one (a workspace remote: the root's node_modules links the workspace package).
 */
export function configSchemaPath(inside: boolean): string {
  return `${inside ? '../../../' : '../'}node_modules/@gatehouse/federation/standalone-config.schema.json`;
}

/**
 * Renders the template: `{{key}}` is replaced by `values[key]` and `{{version:pkg}}` by `versions[pkg]`.
 * A placeholder without a value is an error, never an empty string in a generated file.
 * Returns relative path → content.
 */
export function renderTemplate(
  values: Readonly<Record<string, string | number>>,
  versions: Readonly<Record<string, string>>,
  dir: string = TEMPLATE_DIR,
): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of listFiles(dir)) {
    const relative = path
      .relative(dir, file)
      .split(path.sep)
      .join('/')
      .replace(/\.tmpl$/, '');
    const encode = encoderFor(relative);
    const text = fs.readFileSync(file, 'utf8').replace(/\{\{([\w:@/.-]+)\}\}/g, (_, key: string) => {
      const value = key.startsWith('version:') ? versions[key.slice('version:'.length)] : values[key];
      if (value === undefined) throw new Error(`The template ${relative} uses {{${key}}}, which has no value.`);
      return encode(String(value), key);
    });
    files.set(relative, text);
  }
  if (dir === TEMPLATE_DIR) for (const [relative, file] of Object.entries(KIT_FILES)) files.set(relative, fs.readFileSync(file, 'utf8'));
  return files;
}

/**
 * Characters a value may have in a generated file that has no encoder here (TypeScript, JSX, YAML, Markdown,
 * HTML): plain in all of them. The values typed are checked against narrower rules first (values.ts); this is the
 * last line, so a value that would change the meaning of such a file is refused, never written.
 */
const PLAIN = /^[\p{L}\p{N} ._~:/@^-]*$/u;

/**
 * How a value is written into the generated file `relative`: one encoder per format. JSON placeholders are inside
 * string literals, so a value is written as the inside of a JSON string (quotes, backslashes and control characters
 * escaped: it can never close the string). Every other format takes plain values only, and refuses the rest.
 */
export function encoderFor(relative: string): (value: string, key: string) => string {
  if (relative.endsWith('.json')) return (value) => JSON.stringify(value).slice(1, -1);
  return (value, key) => {
    if (!PLAIN.test(value))
      throw new Error(`{{${key}}} cannot be written into ${relative}: ${JSON.stringify(value)} has characters that are not plain there.`);
    return value;
  };
}

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}
