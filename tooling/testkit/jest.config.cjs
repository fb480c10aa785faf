module.exports = {
  ...require('../../jest.preset.cjs'),
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons', '@gatehouse/source'] },
};
