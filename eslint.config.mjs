// ESLint for every package (flat config): JavaScript's and typescript-eslint's recommended rules, and React's
// hooks rules for components. Formatting is Prettier's job (.prettierrc.json), so no stylistic rules here.
// Rules that need type information are left out: `npm run typecheck` already runs tsc strictly, and linting
// without types keeps `npm run lint` to seconds on a 2-core machine (decisions/0023).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/dist-sourcemaps/',
      '**/coverage/',
      '**/test-results/',
      '**/playwright-report/',
      '.preview/',
      'bench/.work/',
      '.keycloak/', // Keycloak's distribution, unpacked by npm run keycloak
      '**/*.generated.*',
      'tooling/contract-check/test/fixtures/types/', // misuses of the contract on purpose (compile-fail fixtures)
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    rules: {
      // `_` marks a parameter a signature needs but the body does not use
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // React code. The two rules of hooks; react-hooks 7's compiler rules (purity, set-state-in-effect,
    // static-components) are not on yet: they flag three deliberate patterns (decisions/0023).
    files: ['auth-lib/src/**/*.{ts,tsx}', 'shell/src/**/*.{ts,tsx}', 'remotes/*/src/**/*.{ts,tsx}', 'tooling/*/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // A test may read a decoded token loosely; `any` stays out of what packages export (decisions/0023).
    files: ['**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Playwright fixtures take their dependencies as a destructured first argument, `{}` when there are none.
    files: ['e2e/**/*.ts', '**/test/browser/**/*.ts', 'dev-idp/browser/**/*.ts', 'playwright.chromium.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-require-imports': 'off', // CommonJS files (jest configs, @gatehouse/config) require
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // code that runs in the page (or is handed to it, as bench's page functions are)
    files: ['**/*.{ts,tsx}', 'auth-lib/public/**/*.js', 'bench/lib/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
