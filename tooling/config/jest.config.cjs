module.exports = {
  ...require('../../jest.preset.cjs'),
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons', '@gatehouse/source'] },
  // the tests stay out of src/, which is what the package publishes
  testMatch: ['<rootDir>/test/**/*.test.ts'],
};
