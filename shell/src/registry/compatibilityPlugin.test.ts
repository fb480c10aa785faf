import { compatibilityPlugin, findIncompatibilities, majorOf } from './compatibilityPlugin';
import { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';

const shellShared = {
  react: [{ version: '19.3.1', from: 'gatehouse_shell' }],
  'react-dom': [{ version: '19.3.1', from: 'gatehouse_shell' }],
  'react-router-dom': [{ version: '7.18.5', from: 'gatehouse_shell' }],
  '@gatehouse/auth-lib': [{ version: '1.0.0', from: 'gatehouse_shell' }],
};

type SnapshotHook = (args: object) => object;

function snapshotArgs(shared: object[]) {
  return { manifestJson: { shared }, moduleInfo: { name: 'billing' }, options: { name: 'gatehouse_shell', shared: shellShared } };
}

describe('majorOf', () => {
  it('reads the major of a version or a range', () => {
    expect(majorOf('19.3.1')).toBe(19);
    expect(majorOf('^18.2.0')).toBe(18);
    expect(majorOf('~7.1.0')).toBe(7);
    expect(majorOf('>=2.0.0')).toBe(2);
    expect(majorOf('latest')).toBeNull();
  });
});

describe('findIncompatibilities', () => {
  it('accepts a remote built against the majors the shell shares, minor differences included', () => {
    const remote = [
      { name: 'react', version: '19.4.0', requiredVersion: '^19.4.0' },
      { name: '@gatehouse/auth-lib', version: '1.2.0', requiredVersion: '^1.2.0' },
      { name: 'lodash', version: '4.17.21', requiredVersion: '^4.17.21' },
    ];
    expect(findIncompatibilities(remote, shellShared, 'gatehouse_shell')).toEqual([]);
  });

  it('names each shared package whose major differs, with what the remote needs and what the shell provides', () => {
    const remote = [
      { name: 'react', version: '18.3.1', requiredVersion: '^18.3.1' },
      { name: 'react-dom', version: '19.3.1', requiredVersion: '^19.3.1' },
      { name: '@gatehouse/auth-lib', version: '2.0.0', requiredVersion: '^2.0.0' },
    ];
    expect(findIncompatibilities(remote, shellShared, 'gatehouse_shell')).toEqual([
      { pkg: 'react', needs: '18.3.1', provides: '19.3.1' },
      { pkg: '@gatehouse/auth-lib', needs: '2.0.0', provides: '1.0.0' },
    ]);
  });
});

describe('compatibilityPlugin', () => {
  it('lets a compatible manifest through unchanged', () => {
    const hook = (compatibilityPlugin(new FailureLog()) as unknown as { loadRemoteSnapshot: SnapshotHook }).loadRemoteSnapshot;
    const args = snapshotArgs([{ name: 'react', version: '19.3.1', requiredVersion: '^19.3.1' }]);
    expect(hook(args)).toBe(args);
  });

  it('refuses a remote built against React 18 before its code runs, and records why for its slot', () => {
    const failures = new FailureLog();
    const hook = (compatibilityPlugin(failures) as unknown as { loadRemoteSnapshot: SnapshotHook }).loadRemoteSnapshot;
    expect(() => hook(snapshotArgs([{ name: 'react', version: '18.3.1', requiredVersion: '^18.3.1' }]))).toThrow(
      /react 18\.3\.1 \(this shell provides 19\.3\.1\)/,
    );
    const recorded = failures.take('billing')?.error;
    expect(recorded).toBeInstanceOf(RemoteLoadError);
    expect(recorded).toMatchObject({ remote: 'billing', code: 'incompatible-shared' });
  });

  it('calls an auth-lib major mismatch incompatible-auth-lib', () => {
    const failures = new FailureLog();
    const hook = (compatibilityPlugin(failures) as unknown as { loadRemoteSnapshot: SnapshotHook }).loadRemoteSnapshot;
    expect(() => hook(snapshotArgs([{ name: '@gatehouse/auth-lib', version: '2.0.0', requiredVersion: '^2.0.0' }]))).toThrow(
      '@gatehouse/auth-lib 2.0.0',
    );
    expect(failures.take('billing')?.error).toMatchObject({ code: 'incompatible-auth-lib' });
  });
});
