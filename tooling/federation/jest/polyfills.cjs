// jest setupFiles entry for a Gatehouse app's unit tests (`@gatehouse/federation/jest-polyfills`):
// jsdom lacks TextEncoder/TextDecoder, which react-router 7 uses at import time.
const { TextDecoder, TextEncoder } = require('node:util');

Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom's `crypto` has no `subtle`, which @gatehouse/auth-lib's DPoP proofs (WebCrypto ECDSA) sign with.
if (!globalThis.crypto?.subtle) {
  const { webcrypto } = require('node:crypto');
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  // Node's CryptoKey class is not on jsdom's global: recognise Node's keys by their tag, as `instanceof` would
  const CryptoKey = class CryptoKey {
    /** @param {unknown} value */
    static [Symbol.hasInstance](value) {
      return Object.prototype.toString.call(value) === '[object CryptoKey]';
    }
  };
  if (typeof globalThis.CryptoKey !== 'function') Object.assign(globalThis, { CryptoKey });
}
