import { SHARED_PACKAGES, sharedDependencies, installedVersion } from './shared';
import path from 'node:path';

const versions: Record<string, string> = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-router-dom': '7.18.5',
  '@gatehouse/auth-lib': '1.0.0',
};

describe('sharedDependencies', () => {
  const shared = sharedDependencies((pkg) => versions[pkg] ?? '0.0.0');

  it('shares React, its DOM renderer and client entry, the JSX runtime, the router and auth-lib', () => {
    expect(Object.keys(shared).sort()).toEqual(
      ['@gatehouse/auth-lib', 'react', 'react-dom', 'react-dom/client', 'react-router-dom', 'react/jsx-runtime'].sort(),
    );
  });

  it('makes every shared package a singleton', () => {
    for (const entry of Object.values(shared)) expect(entry.singleton).toBe(true);
  });

  it('requires auth-lib strictly, within its major', () => {
    expect(shared['@gatehouse/auth-lib']).toEqual({ singleton: true, strictVersion: true, requiredVersion: '^1.0.0', version: '1.0.0' });
  });

  it('versions the shared router (the subset, decisions/0007) by the react-router-dom it re-exports', () => {
    expect(SHARED_PACKAGES['react-router-dom']).toBe('react-router-dom');
    expect(shared['react-router-dom']).toMatchObject({ singleton: true, version: '7.18.5' });
  });

  it('lets React and the router differ in minor versions without failing', () => {
    expect(shared.react).toMatchObject({ strictVersion: false, requiredVersion: '^19.3.1' });
    expect(shared['react-router-dom']).toMatchObject({ strictVersion: false, requiredVersion: '^7.18.5' });
  });

  it('versions a subpath by its package', () => {
    expect(shared['react-dom/client']?.version).toBe('19.3.1');
    expect(shared['react/jsx-runtime']?.version).toBe('19.3.1');
    expect(SHARED_PACKAGES['react-dom/client']).toBe('react-dom');
  });
});

describe('installedVersion', () => {
  it('reads the version installed for an app', () => {
    expect(installedVersion('react', path.join(__dirname, '..'))).toMatch(/^19\./);
  });
});
