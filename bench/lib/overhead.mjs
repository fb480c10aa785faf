// What signing in adds to a page, in milliseconds: `auth_overhead_ratio` divides by the public
// page's time, so a faster public page alone makes the ratio worse; the difference does not.

/** @typedef {import('./stats.mjs').Summary} Summary */

/**
 * `auth_overhead_ms`: the median of the cold loads of /profile (signed in at the provider) minus the median of
 * the cold loads of Home (signed out), of the same run — the same medians `auth_overhead_ratio` divides.
 *
 * @param {Summary} publicVisible `time_to_public_visible_ms`'s loads
 * @param {Summary} remoteVisible `time_to_remote_visible_ms`'s loads
 * @returns {number} whole ms
 */
export function authOverheadMs(publicVisible, remoteVisible) {
  return Math.round(remoteVisible.median - publicVisible.median);
}
