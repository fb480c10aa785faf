const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { DefinePlugin } = require('webpack');
const { baseConfig, shared } = require('../shared');

// The remote's and the provider's addresses: the bench serves them on ports 4111 and 8180 (REMOTE_URL and IDP_URL
// override them: bench/lib/crossSite.mjs's HTTPS topologies).
const remoteUrl = process.env.REMOTE_URL ?? 'http://localhost:4111';
const idpUrl = process.env.IDP_URL ?? 'http://localhost:8180';

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
    new DefinePlugin({ IDP_URL: JSON.stringify(idpUrl) }),
    new HtmlWebpackPlugin({ template: './public/index.html', publicPath: '/' }),
    // keycloak-js's silent check-sso page, served beside index.html
    new HtmlWebpackPlugin({ template: './public/silent-check-sso.html', filename: 'silent-check-sso.html', inject: false }),
  ],
});
