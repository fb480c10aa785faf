import { RELEASE_FILE, releasePathOf, type ReleasePublicKey } from '@gatehouse/federation/release';
import { checkRelease } from '../release';
import { HASHED_FILE, mustBeImmutable, mustRevalidate } from './caching';
import { DOCTOR_CODES } from './problems';
import type { Findings, Reader } from './providerChecks';

export interface RemoteEntry {
  readonly name: string;
  readonly manifest: string;
  /** the public keys its signed releases must verify against (decisions/0117) */
  readonly signingKeys?: readonly ReleasePublicKey[];
}

/** The parts of an mf-manifest.json that say where the remote's files are. */
interface ManifestFiles {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ assets?: { js?: { sync?: string[] } } }>;
}

/** How many of a remote's code files are looked at (their cache headers); one or two show how all are served. */
const FILES_PER_REMOTE = 3;

/**
 * One remote as the shell loads it: its manifest over https, with CORS for the shell's origin and not cached,
 * its remote entry and code files with the cache headers their names call for.
 */
export async function checkRemote(read: Reader, shell: URL, remote: RemoteEntry, out: Findings): Promise<void> {
  const { problems, passed } = out;
  const manifestUrl = new URL(remote.manifest, shell);
  if (manifestUrl.protocol === 'http:') {
    problems.push({
      code: DOCTOR_CODES.http,
      what: `Remote ${remote.name}'s manifest is at ${manifestUrl.href}, plain http.`,
      breaks: `${shell.protocol === 'https:' ? "The https shell's browsers block it (mixed content): the route shows the remote's error. " : ''}Its code could be altered on the way.`,
      fix: `Serve remote ${remote.name} over https and register its https manifest URL in config.json.`,
    });
  }
  const manifest = await read(manifestUrl.href, { headers: { origin: shell.origin, accept: 'application/json' } });
  if (manifest.status !== 200) {
    problems.push({
      code: DOCTOR_CODES.manifest,
      what: `Remote ${remote.name}'s manifest ${manifestUrl.href} answered HTTP ${manifest.status}.`,
      breaks: `Visitors of ${remote.name}'s route see its error instead of the remote.`,
      fix: `Deploy remote ${remote.name} there, or correct its "manifest" in config.json.`,
    });
    return;
  }
  if (manifestUrl.origin !== shell.origin) {
    const allowed = manifest.headers['access-control-allow-origin'];
    if (allowed !== '*' && allowed !== shell.origin) {
      problems.push({
        code: DOCTOR_CODES.cors,
        what: `Remote ${remote.name} does not allow the shell's origin ${shell.origin} by CORS (Access-Control-Allow-Origin: ${allowed ?? 'none'}).`,
        breaks: `The browser refuses the manifest: ${remote.name}'s route shows its error.`,
        fix: `Answer ${shell.origin} in Access-Control-Allow-Origin on remote ${remote.name} (deploy/nginx: the shell's origin, or extraShellOrigins).`,
      });
    } else passed.push(`Remote ${remote.name} allows ${shell.origin} by CORS.`);
  }
  const cached = mustRevalidate(manifest, `Remote ${remote.name}'s manifest`);
  if (cached) problems.push(cached);
  else passed.push(`Remote ${remote.name}'s manifest is revalidated at each load.`);

  let files: ManifestFiles;
  try {
    files = JSON.parse(manifest.body) as ManifestFiles;
  } catch {
    problems.push({
      code: DOCTOR_CODES.manifest,
      what: `${manifestUrl.href} is not JSON.`,
      breaks: `${remote.name}'s route shows its error.`,
      fix: "Register the mf-manifest.json the remote's build wrote.",
    });
    return;
  }
  if (remote.signingKeys) await checkSignedRelease(read, remote, remote.signingKeys, manifestUrl, manifest.body, files, out);
  const publicPath = files.metaData?.publicPath;
  const base = publicPath && publicPath !== 'auto' ? new URL(publicPath, manifestUrl) : manifestUrl;
  const entry = files.metaData?.remoteEntry;
  const paths = [
    ...(entry?.name ? [`${entry.path ? `${entry.path.replace(/\/?$/, '/')}` : ''}${entry.name}`] : []),
    ...(files.exposes ?? []).flatMap((e) => e.assets?.js?.sync ?? []),
  ];
  for (const file of [...new Set(paths)].slice(0, FILES_PER_REMOTE)) {
    const url = new URL(file, base);
    const response = await read(url.href, { method: 'HEAD' });
    if (response.status !== 200) {
      problems.push({
        code: DOCTOR_CODES.manifest,
        what: `${url.href}, named in ${remote.name}'s manifest, answered HTTP ${response.status}.`,
        breaks: `${remote.name}'s route shows its error.`,
        fix: `Deploy the whole build of ${remote.name} (its manifest and the files it names together).`,
      });
      continue;
    }
    const hashed = HASHED_FILE.test(url.pathname);
    const problem = hashed ? mustBeImmutable(response) : mustRevalidate(response, `${remote.name}'s ${file}`);
    if (problem) problems.push(problem);
    else passed.push(`${url.href} is served ${hashed ? 'as immutable' : 'to be revalidated at each load'}.`);
  }
}

/**
 * A remote whose registry entry pins signing keys: its deployed `mf-release.json` verifies against them, and the
 * manifest and remote entry served are the files it signed (what the shell will check before it runs them).
 */
async function checkSignedRelease(
  read: Reader,
  remote: RemoteEntry,
  keys: readonly ReleasePublicKey[],
  manifestUrl: URL,
  manifestBody: string,
  files: ManifestFiles,
  { problems, passed }: Findings,
): Promise<void> {
  const releaseUrl = new URL(RELEASE_FILE, manifestUrl);
  const response = await read(releaseUrl.href, { headers: { accept: 'application/json' } });
  let release: { json: unknown } | { missing: string };
  if (response.status !== 200) release = { missing: `(${releaseUrl.href}) answered HTTP ${response.status}` };
  else {
    try {
      release = { json: JSON.parse(response.body) as unknown };
    } catch {
      release = { missing: `(${releaseUrl.href}) is not JSON` };
    }
  }
  const checked: Array<{ path: string; bytes: string }> = [
    { path: releasePathOf(manifestUrl, manifestUrl) ?? 'mf-manifest.json', bytes: manifestBody },
  ];
  const entry = files.metaData?.remoteEntry;
  const publicPath = files.metaData?.publicPath;
  const base = publicPath && publicPath !== 'auto' ? new URL(publicPath, manifestUrl) : manifestUrl;
  if ('json' in release && entry?.name) {
    const entryUrl = new URL(`${entry.path ? entry.path.replace(/\/?$/, '/') : ''}${entry.name}`, base);
    const path = releasePathOf(entryUrl, manifestUrl);
    const body = await read(entryUrl.href, { maxBytes: 10_000_000 });
    if (path !== undefined && body.status === 200) checked.push({ path, bytes: body.body });
  }
  const verdict = await checkRelease({ name: remote.name, keys, release, files: checked });
  if (verdict.ok)
    passed.push(
      `Remote ${remote.name}'s release verifies against its pinned key ${verdict.keyId}, and ${verdict.checked.join(' and ')} are the files it signed.`,
    );
  else
    problems.push({
      code: DOCTOR_CODES.release,
      what: verdict.what,
      breaks: `A shell that checks signed releases refuses to run ${remote.name}: its route shows the remote's error.`,
      fix: verdict.fix,
    });
}
