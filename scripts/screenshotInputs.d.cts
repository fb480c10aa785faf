// Types of scripts/screenshotInputs.cjs, for the screenshot script and the shell's unit test (TypeScript).
/** The folders whose files decide what the screenshots show, the names in each that count, and why. */
export declare const INPUTS: ReadonlyArray<{ readonly dir: string; readonly names: RegExp; readonly why: string }>;
/** docs/screenshots.json, from the repository's root. */
export declare const MANIFEST: string;
/** Each input file (from the repository's root) with its SHA-256. */
export declare function inputDigests(): Record<string, string>;
/** The pictures in docs/ with their SHA-256. */
export declare function screenshotDigests(): Record<string, string>;
/** What differs between the committed manifest and the files now, a sentence a file; empty when the pictures are current. */
export declare function staleness(): string[];
/** Writes docs/screenshots.json for the pictures and inputs as they are now. */
export declare function writeManifest(): void;
