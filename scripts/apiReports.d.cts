// Types of scripts/apiReports.cjs, for the packages' apiReport tests (TypeScript).
export interface ApiEntry {
  /** What a consumer imports (the report's title). */
  readonly name: string;
  /** The entry's source or hand-written declarations, from the repository's root. */
  readonly source: string;
  /** The committed report, from the repository's root. */
  readonly report: string;
  /** The build tsconfig whose options emit its declarations (none: `source` is declarations). */
  readonly tsconfig?: string;
}
export interface ApiPackage {
  readonly name: string;
  readonly folder: string;
  readonly entries: readonly ApiEntry[];
  readonly bundledPackages?: readonly string[];
}
export interface ApiReportResult {
  readonly entry: ApiEntry;
  /** Whether the committed report matches (check) or was written (update), with no error or warning. */
  readonly ok: boolean;
  /** Whether the report of this run differs from the committed one (or there is none). */
  readonly changed: boolean;
  /** API Extractor's errors and warnings: for a changed report, its diff. */
  readonly messages: readonly string[];
}
/** The published packages whose API is pinned, by workspace folder name: 'auth-lib', 'federation', 'config'. */
export declare const API_PACKAGES: Readonly<Record<string, ApiPackage>>;
/** Makes each entry's report of a package and compares it with the committed one (`update`: writes it there instead). */
export declare function apiReports(key: string, options?: { update?: boolean }): ApiReportResult[];
/** A package's API tests, given jest's `beforeAll` and `test`. */
export declare function apiReportTests(
  key: string,
  jest: { beforeAll: (fn: () => void, timeout?: number) => void; test: (name: string, fn: () => void) => void },
): void;
/** The code entry points of a package's `exports`, from the repository's root. */
export declare function exportedEntryPoints(key: string): string[];
/** The command that writes a package's reports anew. */
export declare function updateCommand(key: string): string;
