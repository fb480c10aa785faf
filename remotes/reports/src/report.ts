/** One row of the sign-in report. */
export interface ReportRow {
  readonly app: string;
  readonly signIns: number;
  readonly failures: number;
}

/** The demo report: sign-ins per app this week (no API in the demo; a real remote would authFetch it). */
export const WEEKLY_SIGN_INS: readonly ReportRow[] = [
  { app: 'Profile', signIns: 182, failures: 4 },
  { app: 'Reports', signIns: 77, failures: 1 },
  { app: 'Admin', signIns: 21, failures: 2 },
];

export function totals(rows: readonly ReportRow[]): ReportRow {
  return rows.reduce((sum, row) => ({ app: 'Total', signIns: sum.signIns + row.signIns, failures: sum.failures + row.failures }), {
    app: 'Total',
    signIns: 0,
    failures: 0,
  });
}

/** Failures as a share of attempts, e.g. "2.1 %". */
export function failureRate(row: ReportRow): string {
  const attempts = row.signIns + row.failures;
  return attempts === 0 ? '—' : `${((row.failures / attempts) * 100).toFixed(1)} %`;
}
