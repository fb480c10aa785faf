// Types of the generated first check (scripts/generate.mjs writes accepts.generated.cjs): the verdict of
// validateShellConfig without the problems, for the shell's first page.

/** Whether a parsed config.json is valid: the same verdict as `validateShellConfig`; `validate` lists the problems. */
export declare function acceptsShellConfig(data: unknown): boolean;
