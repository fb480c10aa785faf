import path from 'node:path';
import { runContractCheck } from './cli';

const ROOT = path.join(__dirname, '..', '..', '..');
const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');

function run(argv: string[], cwd = ROOT) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runContractCheck(argv, { cwd, out: (t) => out.push(t), err: (t) => err.push(t), readInstalled: () => null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('contract-check command', () => {
  it('passes the profile remote of this repository against this shell, with the real installed versions', () => {
    const out: string[] = [];
    const code = runContractCheck([], { cwd: path.join(ROOT, 'remotes', 'profile'), out: (t) => out.push(t), err: (t) => out.push(t) });
    expect(out.join('\n')).toContain('Contract check: @gatehouse/remote-profile against @gatehouse/shell');
    expect(code).toBe(0);
  });

  it('exits 1 and explains on a mismatched major', () => {
    const result = run(['--remote', path.join(FIXTURES, 'remote-react18'), '--shell', path.join(FIXTURES, 'shell')]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('✗ react ');
  });

  it("exits 1 and names the file and the field when the remote's config.json fails the shell's schema", () => {
    const result = run(['--remote', path.join(FIXTURES, 'remote-bad-config'), '--shell', path.join(FIXTURES, 'shell')]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `${path.join(FIXTURES, 'remote-bad-config', 'public', 'config.json')}: identityProvider.trustedOrigins[0] must be an origin (scheme, host, optional port; no path, no wildcard)`,
    );
  });

  it('exits 2 on an unknown argument, with the usage', () => {
    expect(run(['--frobnicate']).err).toMatch(/Unknown argument "--frobnicate"[\s\S]*Usage: contract-check/);
  });

  it('exits 2 with a message when there is no package.json', () => {
    const result = run(['--remote', path.join(FIXTURES, 'nothing-here'), '--shell', path.join(FIXTURES, 'shell')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/package\.json does not exist/);
  });
});
