import semver from 'semver';
import type { AppPackage } from './appPackage';

/** How one shared dependency fits: `ok`, `warning` (works, but look at it) or `mismatch` (do not deploy). */
export type FindingStatus = 'ok' | 'warning' | 'mismatch';

/** The verdict on one shared dependency. */
export interface Finding {
  readonly package: string;
  readonly status: FindingStatus;
  /** the remote's declared range, or null when it does not declare the package */
  readonly wants: string | null;
  /** the version installed for the remote (what its build bundles and asks the page for), if any */
  readonly remoteInstalled: string | null;
  /** the version the shell puts on the page, or null when it cannot be found */
  readonly provides: string | null;
  /** why, in one sentence (empty when ok) */
  readonly reason: string;
  /** what to do (empty when ok) */
  readonly fix: string;
}

export interface ContractReport {
  readonly remote: string;
  readonly shell: string;
  readonly findings: readonly Finding[];
  /** true when no finding is a mismatch */
  readonly ok: boolean;
}

export interface ContractInput {
  readonly shell: AppPackage;
  readonly remote: AppPackage;
  /** the packages shared as page-wide singletons (federation's SHARED_PACKAGES values) */
  readonly shared: Iterable<string>;
  /** the shared packages the federation runtime refuses to load in another version (STRICT_PACKAGES) */
  readonly strict: ReadonlySet<string>;
  /** how the remote's package.json is named in messages, e.g. `remotes/billing/package.json` */
  readonly remoteManifest?: string;
}

/**
 * Compares what a remote expects of each shared singleton with what the shell provides. The shell's copy
 * is the one that runs (singletons, `loaded-first`), so a remote whose declared range excludes it, or
 * that is built against another major, would run against an API it was not written for; for a strict
 * package (auth-lib) the federation runtime refuses to load the remote at all.
 */
export function checkContract(input: ContractInput): ContractReport {
  const manifest = input.remoteManifest ?? `${input.remote.name}'s package.json`;
  const findings = [...new Set(input.shared)].map((pkg) => checkOne(pkg, input, manifest));
  return {
    remote: input.remote.name,
    shell: input.shell.name,
    findings,
    ok: findings.every((finding) => finding.status !== 'mismatch'),
  };
}

function checkOne(pkg: string, input: ContractInput, manifest: string): Finding {
  const { shell, remote, strict } = input;
  const wants = remote.declared[pkg] ?? null;
  const remoteInstalled = remote.installed(pkg);
  const provides = shell.installed(pkg) ?? exactOrNull(shell.declared[pkg]);
  const base = { package: pkg, wants, remoteInstalled, provides };
  const verdict = (status: FindingStatus, reason: string, fix: string): Finding => ({ ...base, status, reason, fix });

  if (provides === null) {
    return verdict(
      'mismatch',
      `The shell (${shell.name}) neither declares nor has ${pkg} installed, so nothing can be compared.`,
      "Run `npm install` at the repository root, or pass the shell's folder with --shell <dir>.",
    );
  }
  const pin = `set "${pkg}": "${provides}" in ${manifest} (or a range that includes ${provides}), then run \`npm install\``;

  if (wants === null) {
    return verdict(
      'warning',
      `The remote does not declare ${pkg}; at run time it gets the shell's ${provides}, but nothing checks that it fits.`,
      `If the remote imports ${pkg}, ${pin}.`,
    );
  }
  if (semver.validRange(wants) === null) {
    return verdict(
      'warning',
      `"${wants}" is not a semver range (a path or a tag?), so it cannot be compared with ${provides}.`,
      `Declare a version range: ${pin}.`,
    );
  }
  if (!semver.satisfies(provides, wants)) {
    return verdict(
      'mismatch',
      `The remote wants ${pkg} ${wants}, but the shell provides ${provides}, and only the shell's copy runs on the page (a shared singleton).`,
      `Build the remote against the shell's version: ${pin}. If the remote truly needs ${wants}, the shell has to move first.`,
    );
  }
  if (remoteInstalled !== null && semver.valid(remoteInstalled) !== null) {
    if (semver.major(remoteInstalled) !== semver.major(provides)) {
      return verdict(
        'mismatch',
        `The remote is built against ${pkg} ${remoteInstalled} (installed for it), another major than the shell's ${provides}.`,
        `Reinstall so the remote gets the shell's copy: ${pin}.`,
      );
    }
    if (!semver.satisfies(provides, `^${remoteInstalled}`)) {
      return strict.has(pkg)
        ? verdict(
            'mismatch',
            `The remote is built against ${pkg} ${remoteInstalled}, newer than the shell's ${provides}; ${pkg} is shared strictly, so the federation runtime refuses to load the remote.`,
            `Build against the shell's version: ${pin}; or deploy a shell with ${pkg} ${remoteInstalled} first.`,
          )
        : verdict(
            'warning',
            `The remote is built against ${pkg} ${remoteInstalled}, newer than the shell's ${provides}; it runs with the shell's copy, so anything newer than ${provides} is missing.`,
            `Use only what ${provides} has, or ${pin}.`,
          );
    }
  }
  return verdict('ok', '', '');
}

/** The version a shell declares when it pins one exactly (the shell's package.json pins its shared packages). */
function exactOrNull(range: string | undefined): string | null {
  if (range === undefined) return null;
  return semver.valid(range) ?? semver.minVersion(range)?.version ?? null;
}
