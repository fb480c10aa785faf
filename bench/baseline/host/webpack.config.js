const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { baseConfig, shared } = require('../shared');

// The remote's address: the bench serves it on port 4111 (REMOTE_URL overrides it).
const remoteUrl = process.env.REMOTE_URL ?? 'http://localhost:4111';

/**
 * @param {unknown} _env
 * @param {{ mode?: import('webpack').Configuration['mode'] }} argv webpack-cli's arguments
 * @returns {import('webpack').Configuration}
 */
module.exports = (_env, argv) => ({
  ...baseConfig(__dirname, argv.mode ?? 'production'),
  plugins: [
    new ModuleFederationPlugin({
      name: 'host',
      remotes: { remote: `remote@${remoteUrl}/remoteEntry.js` },
      shared,
      dts: false,
    }),
    new HtmlWebpackPlugin({ template: './public/index.html', publicPath: '/' }),
    // keycloak-js's silent check-sso page, served beside index.html
    new HtmlWebpackPlugin({ template: './public/silent-check-sso.html', filename: 'silent-check-sso.html', inject: false }),
  ],
});
