/** The TypeScript sources under `dir` (tests included, declarations not). */
export function sourcesUnder(dir: string): string[];
/** Each source under `root` with the sources under `root` it imports (absolute paths). */
export function importGraph(root: string): Map<string, string[]>;
/** Every import circle under `root`, each once, as the modules around it relative to `root` (empty: none). */
export function importCircles(root: string): string[][];
