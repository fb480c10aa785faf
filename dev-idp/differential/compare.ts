import { isDeepStrictEqual } from 'node:util';

import type { Observation } from './normalise.js';

/** One field that the two providers answer differently. */
export interface Difference {
  field: string;
  keycloak: unknown;
  devIdp: unknown;
}

/** The fields of two observations whose values differ (a field one side lacks counts as `undefined`). */
export function differences(keycloak: Observation, devIdp: Observation): Difference[] {
  const fields = [...new Set([...Object.keys(keycloak), ...Object.keys(devIdp)])].sort();
  return fields
    .filter((field) => !isDeepStrictEqual(keycloak[field], devIdp[field]))
    .map((field) => ({ field, keycloak: keycloak[field], devIdp: devIdp[field] }));
}
