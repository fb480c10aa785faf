const preset = require('../../jest.preset.cjs');

// The packages of ES modules only that a test reaches: dpop and jose (the preset's), and the Keycloak admin client
// with its own (signInAsAdmin, through realmOverlay.test.ts), which jest, running CommonJS, has ts-jest transpile.
const ESM_ONLY = [
  'dpop',
  'jose',
  '@keycloak/keycloak-admin-client',
  '@microsoft/kiota-[^/]+',
  'camelize-ts',
  'url-template',
  'tinyduration',
  '@std-uritemplate/std-uritemplate',
];
const [esmTransform] = Object.values(preset.transform);

module.exports = {
  ...preset,
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons', '@gatehouse/source'] },
  transform: { [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: esmTransform, ...preset.transform },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // dev-idp's sources (the realm overlay's parser, realmOverlay.test.ts) import each other as `./x.js`, as Node's ES
  // modules do: here the TypeScript file of that name
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
