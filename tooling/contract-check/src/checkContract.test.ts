import path from 'node:path';
import { SHARED_PACKAGES, STRICT_PACKAGES } from '@gatehouse/federation';
import { readAppPackage, type InstalledVersionReader } from './appPackage';
import { checkContract, type ContractReport } from './checkContract';
import { formatReport } from './formatReport';

const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');

/** What is installed for each fixture folder: by default, exactly what the fixture declares. */
function installedAsDeclared(overrides: Record<string, string> = {}): InstalledVersionReader {
  return (pkg, dir) => {
    if (overrides[pkg] !== undefined) return overrides[pkg] ?? null;
    const declared = readAppPackage(dir, () => null).declared[pkg];
    return declared?.replace(/^[\^~]/, '') ?? null;
  };
}

function check(remote: string, remoteInstalled: Record<string, string> = {}): ContractReport {
  return checkContract({
    shell: readAppPackage(path.join(FIXTURES, 'shell'), installedAsDeclared()),
    remote: readAppPackage(path.join(FIXTURES, remote), installedAsDeclared(remoteInstalled)),
    shared: Object.values(SHARED_PACKAGES),
    strict: STRICT_PACKAGES,
    remoteManifest: `remotes/${remote}/package.json`,
  });
}

function finding(report: ContractReport, pkg: string) {
  const found = report.findings.find((f) => f.package === pkg);
  if (!found) throw new Error(`no finding for ${pkg}`);
  return found;
}

describe('checkContract', () => {
  it('passes a remote whose ranges include every version the shell provides', () => {
    const report = check('remote-fits');
    expect(report.ok).toBe(true);
    expect(report.findings.map((f) => [f.package, f.status])).toEqual([
      ['react', 'ok'],
      ['react-dom', 'ok'],
      ['react-router-dom', 'ok'],
      ['@gatehouse/auth-lib', 'ok'],
    ]);
  });

  it('fails a remote that wants another major of React, naming the dependency, both versions and the fix', () => {
    const report = check('remote-react18');
    expect(report.ok).toBe(false);
    expect(finding(report, 'react')).toMatchObject({ status: 'mismatch', wants: '^18.2.0', provides: '19.3.1' });
    expect(finding(report, 'react').fix).toContain('set "react": "19.3.1" in remotes/remote-react18/package.json');
    expect(finding(report, 'react-dom').status).toBe('mismatch');
    expect(finding(report, 'react-router-dom').status).toBe('ok');
  });

  it('fails a remote built against another major than its range says (installed for it)', () => {
    const report = check('remote-fits', { react: '20.0.0' });
    expect(finding(report, 'react')).toMatchObject({ status: 'mismatch', remoteInstalled: '20.0.0' });
  });

  it('fails a remote built against a newer auth-lib than the shell has, as the runtime would refuse it (strict)', () => {
    const report = check('remote-auth-lib-newer', { '@gatehouse/auth-lib': '1.2.0' });
    expect(report.ok).toBe(false);
    expect(finding(report, '@gatehouse/auth-lib').reason).toMatch(/shared strictly/);
  });

  it('only warns about a newer minor of a non-strict singleton', () => {
    const report = check('remote-fits', { react: '19.4.0' });
    expect(report.ok).toBe(true);
    expect(finding(report, 'react').status).toBe('warning');
  });

  it('warns about a shared package the remote does not declare', () => {
    const report = check('remote-undeclared');
    expect(report.ok).toBe(true);
    expect(finding(report, 'react-router-dom')).toMatchObject({ status: 'warning', wants: null });
  });
});

describe('formatReport', () => {
  it('says which dependency, what the remote wants, what the shell provides and what to do', () => {
    const text = formatReport(check('remote-react18'));
    expect(text).toContain('✗ react-dom');
    expect(text).toContain('remote wants ^18.2.0 (installed 18.2.0), shell provides 19.3.1');
    expect(text).toContain('What to do: Build the remote against the shell\'s version: set "react-dom": "19.3.1"');
    expect(text).toMatch(/2 shared dependencies do not fit the shell\. Do not deploy/);
  });

  it('ends with a pass line when everything fits', () => {
    expect(formatReport(check('remote-fits'))).toMatch(/✓ The remote fits the shell\.$/);
  });
});
