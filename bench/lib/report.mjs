// The goals of the benchmark and the table that compares a run's figures with them.

import { PAGE_KEYS, PROFILES } from './profiles.mjs';

/**
 * What a key measures and its goal: at most `max`, exactly `equals`, at most `factor` times another key's
 * figure (`maxTimes`), or none (reported only).
 *
 * @typedef {{ what: string, max?: number, equals?: number, maxTimes?: { key: string, factor: number } }} Goal
 */

/**
 * key → what it measures, its unit and its goal (`max`/`equals`, or none: reported only).
 *
 * @satisfies {Record<string, Goal>}
 */
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
  // what checking the profile remote's signed release added after its manifest arrived (decisions/0117)
  remote_verify_ms: { what: "profile remote's signed release verified, after its manifest arrived (ms)" },
  time_to_remote_visible_second_tab_ms: {
    what: 'second tab of a signed-in browser opens /profile (ms)',
    maxTimes: { key: 'time_to_public_visible_ms', factor: 1.2 },
  },
  auth_overhead_ratio: { what: 'remote visible ÷ public visible', max: 1.5 },
  auth_overhead_ms: { what: 'remote visible − public visible (ms)' },
  // a remote's API call with its token warm, timed in the page (Gatehouse: authFetch, DPoP proof included)
  api_call_ms: { what: "profile remote's API call, token warm, after the first (ms)" },
  api_call_first_ms: { what: "profile remote's first API call from the bench, token warm (ms)" },
  // the same sign-in keys with Keycloak 26 as the identity provider (bench/lib/keycloak.mjs)
  time_to_public_visible_keycloak_ms: { what: 'cold load to Home painted, Keycloak (ms)' },
  time_to_remote_visible_keycloak_ms: { what: 'cold load of /profile, signed in at Keycloak (ms)' },
  time_to_remote_visible_second_tab_keycloak_ms: { what: 'second tab opens /profile, Keycloak (ms)' },
  auth_overhead_keycloak_ms: { what: 'remote visible − public visible, Keycloak (ms)' },
  // HTTPS, the provider on another site or on the shell's (bench/lib/crossSite.mjs; wall clock, redirects included)
  time_to_remote_visible_cross_site_allowed_ms: { what: 'cold load of /profile, provider on another site, 3rd-party cookies allowed (ms)' },
  reload_signed_in_cross_site_allowed_ms: {
    what: 'reload of /profile signed in, provider on another site, 3rd-party cookies allowed (ms)',
  },
  time_to_remote_visible_cross_site_blocked_ms: { what: 'cold load of /profile, provider on another site, 3rd-party cookies blocked (ms)' },
  reload_signed_in_cross_site_blocked_ms: {
    what: 'reload of /profile signed in, provider on another site, 3rd-party cookies blocked (ms)',
  },
  time_to_remote_visible_same_site_ms: { what: "cold load of /profile, provider on the shell's site, 3rd-party cookies blocked (ms)" },
  reload_signed_in_same_site_ms: { what: "reload of /profile signed in, provider on the shell's site, 3rd-party cookies blocked (ms)" },
  // an administrator ends the session of an untouched page on /profile: ms from the start of the logout call to the
  // page's notice (bench/lib/revocation.mjs; null: not noticed within its cap, `notes` says so)
  revocation_noticed_ms: { what: "administrator's logout → an untouched visible page notices (ms)" },
  revocation_noticed_hidden_ms: { what: "administrator's logout → an untouched hidden page notices (ms)" },
  revocation_noticed_keycloak_ms: { what: "administrator's logout → an untouched visible page notices, Keycloak (ms)" },
  revocation_noticed_hidden_keycloak_ms: { what: "administrator's logout → an untouched hidden page notices, Keycloak (ms)" },
  build_s_per_app: { what: 'cold production build of one app (s)', max: 4 },
  rebuild_ms: { what: 'dev-server rebuild after editing one file (ms)', max: 500 },
};

/** @typedef {keyof typeof GOALS} GoalKey */

/** The goal of at most 0.75 × the baseline for every size and time key the baseline has: at most this × the baseline's figure in the same run. */
export const BASELINE_FACTOR = 0.75;

/** The keys in the table's order. @type {GoalKey[]} */
export const GOAL_KEYS = /** @type {GoalKey[]} */ (Object.keys(GOALS));

/**
 * A run's figures as results.json holds them: one per key (null: not measured), the spread behind each
 * median, the baseline's figures and Gatehouse ÷ baseline.
 *
 * Keys of a device profile other than `fast` (bench/lib/profiles.mjs) carry its suffix (`…_cpu4x`).
 *
 * @typedef {Partial<Record<GoalKey, number | null>> & Record<string, unknown> & {
 *   spread?: Partial<Record<string, import('./stats.mjs').Summary>>,
 *   baseline?: Partial<Record<string, number | null>>,
 *   notes?: Partial<Record<string, string>>,
 *   ratio?: Partial<Record<string, number>>,
 * }} Results
 */

/**
 * Whether `value` meets the goal of `key`.
 *
 * @param {GoalKey} key
 * @param {number | null | undefined} value
 * @param {Results} [results] the run's other figures (a `maxTimes` goal compares with one)
 * @returns {'pass' | 'FAIL' | 'report' | 'n/a'}
 */
export function verdict(key, value, results = {}) {
  /** @type {Goal} */
  const goal = GOALS[key];
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  if (goal.max !== undefined) return value <= goal.max ? 'pass' : 'FAIL';
  if (goal.maxTimes !== undefined) {
    const other = results[/** @type {GoalKey} */ (goal.maxTimes.key)];
    if (typeof other !== 'number' || Number.isNaN(other)) return 'n/a';
    return value <= goal.maxTimes.factor * other ? 'pass' : 'FAIL';
  }
  if (goal.equals !== undefined) return value === goal.equals ? 'pass' : 'FAIL';
  return 'report';
}

/** @param {GoalKey} key */
function goalText(key) {
  /** @type {Goal} */
  const goal = GOALS[key];
  if (goal.max !== undefined) return `≤ ${goal.max}`;
  if (goal.equals !== undefined) return `= ${goal.equals}`;
  if (goal.maxTimes !== undefined) return `≤ ${goal.maxTimes.factor} × ${goal.maxTimes.key}`;
  return 'report';
}

/** @param {number | undefined} ratio Gatehouse ÷ baseline @returns {string} '' when the baseline has no figure */
function withinFactor(ratio) {
  if (ratio === undefined || !Number.isFinite(ratio)) return '';
  return ratio <= BASELINE_FACTOR ? 'yes' : 'no';
}

/**
 * The figures of one device profile under the keys without its suffix, for the table's rows and goals.
 *
 * @param {Results} results @param {string} suffix
 * @returns {Results}
 */
function profileView(results, suffix) {
  /** @type {Results} */
  const view = { spread: {}, baseline: {}, ratio: {} };
  for (const key of PAGE_KEYS) {
    const value = results[`${key}${suffix}`];
    view[key] = typeof value === 'number' ? value : null;
    const spread = results.spread?.[`${key}${suffix}`];
    const base = results.baseline?.[`${key}${suffix}`];
    const ratio = results.ratio?.[`${key}${suffix}`];
    if (spread && view.spread) view.spread[key] = spread;
    if (base !== undefined && view.baseline) view.baseline[key] = base;
    if (ratio !== undefined && view.ratio) view.ratio[key] = ratio;
  }
  return view;
}

/**
 * A Markdown table (also readable in a terminal) of the figures with min–max and pass/fail: every key of the `fast`
 * profile, then for each other device profile measured (bench/lib/profiles.mjs) a block of its page keys, each
 * compared with the baseline in the same profile.
 *
 * @param {Results} results
 * @returns {string}
 */
export function table(results) {
  const header = ['key', 'median / value', 'min – max', 'goal', 'result', 'baseline', '÷ baseline', `≤ ${BASELINE_FACTOR}`];
  const rows = [header];
  /** @param {Results} figures @param {readonly GoalKey[]} keys @param {string} suffix */
  const addRows = (figures, keys, suffix) => {
    for (const key of keys) {
      const value = figures[key];
      const spread = figures.spread?.[key];
      rows.push([
        `\`${key}${suffix}\``,
        String(value ?? '—'),
        spread ? `${spread.min} – ${spread.max} (n=${spread.n})` : '',
        goalText(key),
        verdict(key, value, figures),
        figures.baseline?.[key] === null
          ? `— (${String(figures.notes?.[`baseline.${key}`] ?? 'not measured')})`
          : String(figures.baseline?.[key] ?? ''),
        String(figures.ratio?.[key] ?? ''),
        withinFactor(figures.ratio?.[key]),
      ]);
    }
  };
  addRows(results, GOAL_KEYS, '');
  /** @type {number[]} where each profile's block starts */
  const blocks = [];
  for (const profile of PROFILES) {
    if (profile.suffix === '' || !PAGE_KEYS.some((key) => typeof results[`${key}${profile.suffix}`] === 'number')) continue;
    blocks.push(rows.length);
    rows.push([`**${profile.name}**: ${profile.what}`, '', '', '', '', '', '', '']);
    // the keys this run measured in the profile (a stage left out, e.g. --skip-keycloak, leaves its keys out)
    const measured = PAGE_KEYS.filter((key) => typeof results[`${key}${profile.suffix}`] === 'number');
    addRows(profileView(results, profile.suffix), measured, profile.suffix);
  }
  const widths = header.map((_, i) => Math.max(...rows.filter((_, r) => !blocks.includes(r)).map((row) => row[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ row) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map((row, i) =>
      blocks.includes(i + 1)
        ? `| ${row[0]} |${widths
            .slice(1)
            .map(() => ' |')
            .join('')}`
        : line(row),
    ),
  ].join('\n');
}
