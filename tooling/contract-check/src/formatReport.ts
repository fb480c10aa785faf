import type { ContractReport, FindingStatus } from './checkContract';

const MARK: Record<FindingStatus, string> = { ok: '✓', warning: '!', mismatch: '✗' };

/** The report as a person reads it in a CI log: one line per shared package, then why and what to do. */
export function formatReport(report: ContractReport): string {
  const width = Math.max(...report.findings.map((f) => f.package.length));
  const lines = [`Contract check: ${report.remote} against ${report.shell}`, ''];
  for (const finding of report.findings) {
    const wants = finding.wants ?? '(not declared)';
    const built = finding.remoteInstalled && finding.remoteInstalled !== finding.wants ? ` (installed ${finding.remoteInstalled})` : '';
    lines.push(
      `  ${MARK[finding.status]} ${finding.package.padEnd(width)}  remote wants ${wants}${built}, shell provides ${finding.provides ?? '(nothing)'}`,
    );
    if (finding.status !== 'ok') {
      lines.push(`      ${finding.reason}`);
      lines.push(`      What to do: ${finding.fix}`);
    }
  }
  const mismatches = report.findings.filter((f) => f.status === 'mismatch').length;
  const warnings = report.findings.filter((f) => f.status === 'warning').length;
  lines.push('');
  if (mismatches > 0) {
    lines.push(
      `✗ ${mismatches} shared ${mismatches === 1 ? 'dependency does' : 'dependencies do'} not fit the shell. Do not deploy this remote until the check passes.`,
    );
  } else {
    lines.push(`✓ The remote fits the shell${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'} above)` : ''}.`);
  }
  return lines.join('\n');
}
