import { levelName, type LoaMap } from '../sessions/acr.js';
import { RealmFileError } from './RealmFileError.js';
import type { AuthenticationFlowRepresentation, RealmRepresentation } from './representation.js';

/** Top-level flows Keycloak creates in every realm: a realm file may bind them without declaring them. */
const KEYCLOAK_FLOWS = new Set([
  'browser',
  'direct grant',
  'registration',
  'reset credentials',
  'clients',
  'first broker login',
  'docker auth',
]);
const LOA_CONDITION = 'conditional-level-of-authentication';

/**
 * Checks a realm file's authentication flows the way Keycloak's import uses them, and compares its browser
 * flow with the step-up levels the dev IdP offers. The dev IdP does not run the flows (its step above the
 * password is the password again), but a file it accepts must import into Keycloak and step up there too:
 *
 * - `browserFlow`, a sub-flow's `flowAlias` or an execution's `authenticatorConfig` that names nothing
 *   throws a {@link RealmFileError} (Keycloak 26's import fails on each with a bare NullPointerException);
 * - a level of `acr.loa.map` (the realm's or a client's) that no level-of-authentication condition of the
 *   browser flow asks for gives a warning: the dev IdP steps up to it, Keycloak cannot.
 */
export function checkAuthenticationFlows(source: string, rep: RealmRepresentation, maps: readonly LoaMap[]): string[] {
  const flows = new Map<string, AuthenticationFlowRepresentation>();
  (rep.authenticationFlows ?? []).forEach((flow, i) => {
    const alias = flow.alias ?? '';
    if (flows.has(alias)) throw new RealmFileError(source, `authenticationFlows[${i}].alias`, `duplicate flow "${alias}"`);
    flows.set(alias, flow);
  });
  const configs = new Map((rep.authenticatorConfig ?? []).map((config) => [config.alias ?? '', config.config ?? {}]));

  (rep.authenticationFlows ?? []).forEach((flow, i) => {
    (flow.authenticationExecutions ?? []).forEach((execution, j) => {
      const at = `authenticationFlows[${i}].authenticationExecutions[${j}]`;
      if (execution.authenticatorFlow && !flows.has(execution.flowAlias ?? '')) {
        throw new RealmFileError(source, `${at}.flowAlias`, `no flow "${execution.flowAlias ?? ''}" in authenticationFlows`);
      }
      if (execution.authenticatorConfig !== undefined && !configs.has(execution.authenticatorConfig)) {
        throw new RealmFileError(
          source,
          `${at}.authenticatorConfig`,
          `no config "${execution.authenticatorConfig}" in authenticatorConfig`,
        );
      }
    });
  });
  const browserFlow = rep.browserFlow ?? 'browser';
  if (!flows.has(browserFlow) && !KEYCLOAK_FLOWS.has(browserFlow)) {
    throw new RealmFileError(source, 'browserFlow', `no flow "${browserFlow}" in authenticationFlows, and Keycloak has none of that name`);
  }

  const conditions = levelConditions(browserFlow, flows, configs);
  // Without any level condition Keycloak's browser flow counts a password sign-in as level 1.
  const reachable = conditions.size > 0 ? conditions : new Set([0, 1]);
  const warnings: string[] = [];
  const seen = new Set<number>();
  for (const map of maps) {
    for (const [name, level] of Object.entries(map)) {
      if (level === 0 || reachable.has(level) || seen.has(level)) continue;
      seen.add(level);
      warnings.push(
        `${source}: acr.loa.map names "${name}" (level ${level}), but browserFlow "${browserFlow}" has no ` +
          `Condition - Level of Authentication for level ${level}: Keycloak cannot step up to "${levelName(level, map)}" ` +
          '(the dev IdP can). Add a conditional sub-flow for it, as deploy/keycloak/README.md shows.',
      );
    }
  }
  return warnings;
}

/** The levels of the enabled level-of-authentication conditions in `alias` and its sub-flows. */
function levelConditions(
  alias: string,
  flows: ReadonlyMap<string, AuthenticationFlowRepresentation>,
  configs: ReadonlyMap<string, Record<string, string>>,
  visited = new Set<string>(),
): Set<number> {
  const levels = new Set<number>();
  if (visited.has(alias)) return levels;
  visited.add(alias);
  for (const execution of flows.get(alias)?.authenticationExecutions ?? []) {
    if (execution.requirement === 'DISABLED') continue;
    if (execution.authenticatorFlow) {
      levelConditions(execution.flowAlias ?? '', flows, configs, visited).forEach((level) => levels.add(level));
    } else if (execution.authenticator === LOA_CONDITION) {
      const level = Number(configs.get(execution.authenticatorConfig ?? '')?.['loa-condition-level']);
      if (Number.isInteger(level)) levels.add(level);
    }
  }
  return levels;
}
