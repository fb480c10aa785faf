// Shared by the host's and the remote's webpack configs: what the Module Federation docs show.
const path = require('node:path');

/**
 * @param {string} dir the app's folder
 * @param {import('webpack').Configuration['mode']} mode
 * @returns {import('webpack').Configuration}
 */
exports.baseConfig = function baseConfig(dir, mode) {
  return {
    mode,
    context: dir,
    entry: './src/index.ts',
    output: { path: path.join(dir, 'dist'), publicPath: 'auto', filename: '[name].[contenthash:8].js', clean: true },
    resolve: { extensions: ['.tsx', '.ts', '.js'], alias: { 'baseline-auth': path.join(__dirname, 'auth/index.ts') } },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'ts-loader',
          options: { transpileOnly: true, configFile: path.join(__dirname, 'tsconfig.json') },
        },
      ],
    },
    performance: false,
  };
};

exports.shared = {
  react: { singleton: true },
  'react-dom': { singleton: true },
  'react-router-dom': { singleton: true },
  'baseline-auth': { singleton: true, version: '1.0.0', requiredVersion: '^1.0.0' },
};
