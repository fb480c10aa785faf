import path from 'node:path';
import vm from 'node:vm';
import webpack from 'webpack';
import { RUNTIME_CORE_GLOBAL, StandaloneRuntimeCorePlugin } from './standaloneRuntimeCore';

const dir = path.join(__dirname, '..', '..', '..', 'remotes', 'profile');

describe('StandaloneRuntimeCorePlugin', () => {
  it("emits a script that puts the federation runtime where a remote's container reads it", async () => {
    const emitted = new Map<string, string>();
    const compilation = {
      hooks: {
        processAssets: {
          tapPromise: (_: unknown, run: () => Promise<void>) => {
            void run;
            (compilation as { run?: () => Promise<void> }).run = run;
          },
        },
      },
      emitAsset: (name: string, source: { source(): string | Buffer }) => emitted.set(name, String(source.source())),
    };
    const compiler = {
      webpack,
      hooks: {
        thisCompilation: {
          tap: (_: string, fn: (c: unknown) => void) => {
            try {
              fn(compilation);
            } catch {
              /* html hooks need a real compilation */
            }
          },
        },
      },
    };
    new StandaloneRuntimeCorePlugin(dir, true).apply(compiler as never);
    await (compilation as unknown as { run: () => Promise<void> }).run();

    const [[name, code] = []] = [...emitted];
    expect(name).toMatch(/^federation-runtime-core\.[0-9a-f]{8}\.js$/);
    const sandbox: Record<string, unknown> = {};
    sandbox['globalThis'] = sandbox;
    vm.runInNewContext(code ?? '', sandbox);
    const core = sandbox[RUNTIME_CORE_GLOBAL] as { ModuleFederation?: unknown } | undefined;
    expect(typeof core?.ModuleFederation).toBe('function');
  });
});
