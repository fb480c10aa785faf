const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { DefinePlugin } = require('webpack');
const { baseConfig, shared } = require('../shared');

// The remote's API: the bench's demo API that takes bearer tokens (bench/lib/topology.mjs, port 4121; API_URL overrides it).
const apiUrl = process.env.API_URL ?? 'http://localhost:4121/profile';

/**
 * @param {unknown} _env
 * @param {{ mode?: import('webpack').Configuration['mode'] }} argv webpack-cli's arguments
 * @returns {import('webpack').Configuration}
 */
module.exports = (_env, argv) => ({
  ...baseConfig(__dirname, argv.mode ?? 'production'),
  plugins: [
    new ModuleFederationPlugin({
      name: 'remote',
      filename: 'remoteEntry.js',
      exposes: { './Profile': './src/Profile.tsx' },
      shared,
      // the bench reads which files are the expose's own code from the manifest (it is not fetched)
      manifest: true,
      dts: false,
    }),
    new DefinePlugin({ API_URL: JSON.stringify(apiUrl) }),
    new HtmlWebpackPlugin(),
  ],
});
