// The jest settings every package shares: TypeScript through ts-jest, a browser-like DOM.
// Type checking is `npm run typecheck`'s job (one tsc -b, scripts/typecheck.mjs); ts-jest only transpiles, which keeps tests fast.
module.exports = {
  testEnvironment: 'jsdom',
  // Gatehouse packages resolve to their TypeScript source (decisions/0017); a package that runs its tests
  // in the node environment lists ['node', 'node-addons', '@gatehouse/source'].
  testEnvironmentOptions: { customExportConditions: ['browser', '@gatehouse/source'] },
  transform: {
    '/node_modules/(dpop|jose)/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } },
    ],
    '^.+\\.tsx?$': [
      'ts-jest',
      {
        tsconfig: {
          isolatedModules: true,
          jsx: 'react-jsx',
          module: 'commonjs',
          moduleResolution: 'node10',
          ignoreDeprecations: '6.0',
          esModuleInterop: true,
          target: 'ES2022',
        },
      },
    ],
  },
  // `dpop` and `jose` (auth-lib's DPoP proofs and their checks) ship ES modules only: jest, which runs CommonJS, has ts-jest transpile it too
  transformIgnorePatterns: ['/node_modules/(?!(dpop|jose)/)'],
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)', '<rootDir>/test/unit/**/*.test.ts?(x)'],
  setupFiles: [require.resolve('./jest.polyfills.cjs')],
  clearMocks: true,
};
