// Small statistics for noisy timings: the median is the figure, min and max show the spread.

/**
 * @typedef {{ median: number, min: number, max: number, n: number }} Summary NaN for no finite values
 */

/** @param {readonly (number | null)[]} values (null, NaN and infinities are left out) @returns {Summary} */
export function summarize(values) {
  const sorted = values.flatMap((v) => (v !== null && Number.isFinite(v) ? [v] : [])).sort((a, b) => a - b);
  /** @param {number} i */
  const at = (i) => sorted[i] ?? NaN;
  if (sorted.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  return { median, min: at(0), max: at(sorted.length - 1), n: sorted.length };
}

/** @param {number} value @param {number} [digits] after the point @returns {number} */
export function round(value, digits = 1) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const KIB = 1024;
