import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { defineApp } from './appConfig';

const fixture = path.join(__dirname, '..', 'test', 'fixtures', 'router-remote');

/** Builds the fixture remote (development mode: no minifier) with the real Gatehouse config. */
function buildFixture(): Promise<Stats> {
  const config = defineApp({ name: 'router_fixture', dir: fixture, port: 3999, exposes: { './App': './src/App.tsx' } })(
    {},
    { mode: 'development' },
  );
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-router-'));
  const { devServer: _devServer, ...build } = config;
  return new Promise((resolve, reject) => {
    webpack(
      {
        ...build,
        output: { ...build.output, path: outDir, sourceMapFilename: '[file].map' },
        devtool: false,
        infrastructureLogging: { level: 'error' },
      },
      (error, stats) => {
        fs.rmSync(outDir, { recursive: true, force: true });
        if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
        else resolve(stats);
      },
    );
  });
}

describe('RouterSubsetPlugin (through a real build)', () => {
  let stats: Stats;
  beforeAll(async () => {
    stats = await buildFixture();
  }, 120_000);

  it('fails the build of a remote that imports router API outside the subset, naming the import and its line', () => {
    const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("'useFetcher' is not part of the router API that Gatehouse apps share as 'react-router-dom'");
    expect(errors[0]?.message).toContain('decisions/0007-shared-router-subset.md');
    expect(errors[0]?.moduleName).toContain('App.tsx');
    expect(errors[0]?.loc).toMatch(/^7:/); // where useFetcher is used
  });

  it('lets the subset through, still imported as react-router-dom and consumed as the shared singleton', () => {
    const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
    for (const name of ['Link', 'Route', 'Routes', 'useNavigate']) {
      expect(errors.some((error) => error.message.includes(`'${name}'`))).toBe(false);
    }
    const modules = stats.toJson({ all: false, modules: true }).modules ?? [];
    expect(modules.some((module) => /consume shared module .*react-router-dom.*router\.ts/.test(module.name ?? ''))).toBe(true);
  });
});
