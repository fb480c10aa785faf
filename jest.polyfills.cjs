// jsdom lacks TextEncoder/TextDecoder, which react-router 7 uses at import time.
const { TextDecoder, TextEncoder } = require('node:util');

Object.assign(globalThis, { TextEncoder, TextDecoder });
