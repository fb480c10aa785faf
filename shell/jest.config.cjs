module.exports = { ...require('../jest.preset.cjs'), setupFiles: ['<rootDir>/test/jsdomPolyfills.ts'] };
