// When each Node major that Gatehouse still runs on stops getting security fixes (nodejs.org/en/about/previous-releases).
// preflight warns past that date: the toolchain still works, but the runtime is no longer patched.

/** Node major → its end-of-life date (UTC). */
export const NODE_END_OF_LIFE = { 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30' };

/**
 * A warning when `version`'s major is past its end of life on `today`, else null.
 *
 * @param {string} version e.g. "20.19.4" @param {Date} today @returns {string | null}
 */
export function endOfLifeWarning(version, today) {
  const major = Number(version.split('.')[0]);
  const end = /** @type {Record<number, string>} */ (NODE_END_OF_LIFE)[major];
  if (end === undefined || today < new Date(`${end}T00:00:00Z`)) return null;
  return (
    `Node ${version} reached its end of life on ${end}: it gets no more security fixes. Gatehouse still runs on it, ` +
    'but move to Node 22 or 24 (.nvmrc names the one to use; with nvm: `nvm install`).'
  );
}
