/**
 * oidc-provider, imported with its one start-up warning silenced: it asks for Node 22, and
 * this repository pins Node 20.19+ (it works there; the warning would only alarm people).
 * Every other warning of oidc-provider still shows.
 */
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('Unsupported runtime')) return;
  warn(...args);
};
let module: typeof import('oidc-provider');
try {
  module = await import('oidc-provider');
} finally {
  console.warn = warn;
}

const Provider = module.default;
export default Provider;

/** oidc-provider's interaction policy building blocks (Check, base), from the same import. */
export const interactionPolicy = module.interactionPolicy;
