/**
 * The version of this copy of auth-lib (kept equal to package.json's by a unit test; a literal rather
 * than a JSON import so every bundler handles it the same and nothing else from package.json ships).
 *
 * @example
 * document.documentElement.dataset.authLib = VERSION;
 */
export const VERSION = '1.0.0';
