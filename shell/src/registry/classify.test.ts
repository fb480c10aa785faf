import {
  getShortErrorMsg,
  RUNTIME_001,
  RUNTIME_002,
  RUNTIME_003,
  RUNTIME_008,
  RUNTIME_015,
  runtimeDescMap,
} from '@module-federation/error-codes';
import { classifyFailure, ManifestHttpError } from './classify';
import { RemoteLoadError } from './RemoteLoadError';

const manifest = 'http://localhost:3003/mf-manifest.json';

describe('classifyFailure', () => {
  it('calls a manifest fetch that never got an answer unreachable', () => {
    const error = classifyFailure('reports', manifest, 'afterResolve', new TypeError('Failed to fetch'));
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(`The remote "reports" is not reachable: ${manifest} did not answer. Is it running?`);
  });

  it('calls a manifest answered with an error status missing', () => {
    const error = classifyFailure('reports', manifest, 'afterResolve', new ManifestHttpError(manifest, 404));
    expect(error.code).toBe('manifest-missing');
    expect(error.message).toContain('has no federation manifest');
    expect(error.message).toContain('HTTP 404');
  });

  it.each([
    ['TypeError: Failed to fetch', 'unreachable'],
    ['SyntaxError: Unexpected token \'<\', "<!doctype "... is not valid JSON', 'manifest-missing'],
  ] as const)("classifies the runtime's RUNTIME-003 by the fetch error it quotes (%s), whatever step reported it", (cause, code) => {
    const wrapped = new Error(`[ Federation Runtime ]: ${getShortErrorMsg(RUNTIME_003, runtimeDescMap, { manifestUrl: manifest }, cause)}`);
    for (const lifecycle of ['afterResolve', 'onLoad'] as const)
      expect(classifyFailure('reports', manifest, lifecycle, wrapped).code).toBe(code);
  });

  it('calls a remote needing another auth-lib incompatible', () => {
    const runtimeMessage =
      'Version 1.0.0 from gatehouse_shell of shared singleton module @gatehouse/auth-lib does not satisfy the requirement of reports which needs ^2.0.0)';
    const error = classifyFailure('reports', manifest, 'onLoad', new Error(runtimeMessage));
    expect(error.code).toBe('incompatible-auth-lib');
    expect(error.message).toContain('needs a version of @gatehouse/auth-lib');
  });

  it('calls a manifest answered with an error status missing also when the runtime quotes it in RUNTIME-003', () => {
    const wrapped = new Error(
      `[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003 args: {} ${new ManifestHttpError(manifest, 404).message}`,
    );
    expect(classifyFailure('reports', manifest, 'afterResolve', wrapped).code).toBe('manifest-missing');
  });

  it.each([RUNTIME_001, RUNTIME_002, RUNTIME_008, RUNTIME_015] as const)(
    'calls a remote entry the runtime reports with %s unavailable code',
    (code) => {
      const error = classifyFailure('reports', manifest, 'onLoad', new Error(`[ Federation Runtime ]: ${runtimeDescMap[code]} #${code}`));
      expect(error.code).toBe('code-unavailable');
    },
  );

  it('calls a chunk of the remote that did not load unavailable code', () => {
    const chunkError = Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' });
    expect(classifyFailure('reports', manifest, 'render', chunkError).code).toBe('code-unavailable');
  });

  it('calls anything a remote throws while starting a code failure and keeps the cause', () => {
    const cause = new Error('boom');
    const error = classifyFailure('reports', manifest, 'render', cause);
    expect(error).toMatchObject({ code: 'code-failed', remote: 'reports', cause });
    expect(error.message).toBe('The remote "reports" failed while starting: boom');
  });

  it('leaves a classified failure as it is', () => {
    const classified = new RemoteLoadError('reports', 'no-app', 'no app');
    expect(classifyFailure('reports', manifest, 'render', classified)).toBe(classified);
  });
});
