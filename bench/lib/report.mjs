// The goals of the benchmark and the table that compares a run's figures with them.

/** key → what it measures, its unit and its goal (`max`/`equals`, or none: reported only). */
export const GOALS = {
  shell_initial_js_gz_kb: { what: 'JS of the shell page before any remote (gzip KiB)', max: 105 },
  remote_overhead_gz_kb: { what: 'profile remote beyond its app code (gzip KiB)', max: 10 },
  react_copies: { what: 'React copies, every remote visited', equals: 1 },
  keycloak_js_copies: { what: 'keycloak-js copies, every remote visited', equals: 1 },
  token_requests_for_50_concurrent_getToken: { what: 'token requests for 50 concurrent getToken()', equals: 1 },
  token_requests_per_refresh_5_tabs: { what: 'token requests per refresh cycle, 50 getToken() over 5 tabs', equals: 1 },
  startup_ratio_100_vs_3_remotes: { what: 'first paint, 100 remotes ÷ 3 remotes', max: 1.1 },
  time_to_public_visible_ms: { what: 'cold load to Home painted (ms)' },
  time_to_remote_visible_ms: { what: 'cold load of /profile, signed in at the provider (ms)' },
  time_to_remote_visible_second_tab_ms: {
    what: 'second tab of a signed-in browser opens /profile (ms)',
    maxTimes: { key: 'time_to_public_visible_ms', factor: 1.2 },
  },
  auth_overhead_ratio: { what: 'remote visible ÷ public visible', max: 1.5 },
  build_s_per_app: { what: 'cold production build of one app (s)', max: 4 },
  rebuild_ms: { what: 'dev-server rebuild after editing one file (ms)', max: 500 },
};

export function verdict(key, value, results = {}) {
  const goal = GOALS[key];
  if (!goal || value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  if ('max' in goal) return value <= goal.max ? 'pass' : 'FAIL';
  if ('maxTimes' in goal) return value <= goal.maxTimes.factor * results[goal.maxTimes.key] ? 'pass' : 'FAIL';
  if ('equals' in goal) return value === goal.equals ? 'pass' : 'FAIL';
  return 'report';
}

function goalText(key) {
  const goal = GOALS[key];
  if ('max' in goal) return `≤ ${goal.max}`;
  if ('equals' in goal) return `= ${goal.equals}`;
  if ('maxTimes' in goal) return `≤ ${goal.maxTimes.factor} × ${goal.maxTimes.key}`;
  return 'report';
}

/** A Markdown table (also readable in a terminal) of the figures with min–max and pass/fail. */
export function table(results) {
  const rows = [['key', 'median / value', 'min – max', 'goal', 'result', 'baseline', '÷ baseline']];
  for (const key of Object.keys(GOALS)) {
    const value = results[key];
    const spread = results.spread?.[key];
    rows.push([
      `\`${key}\``,
      String(value ?? '—'),
      spread ? `${spread.min} – ${spread.max} (n=${spread.n})` : '',
      goalText(key),
      verdict(key, value, results),
      String(results.baseline?.[key] ?? ''),
      String(results.ratio?.[key] ?? ''),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}
