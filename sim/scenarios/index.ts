/**
 * The registry of built-in scenarios: a literal table, read at a glance.
 */
import { UsageError } from '../../core/errors.js';
import type { Scenario } from '../types.js';
import { GENERATED_PARAMS, buildGenerated, type GeneratedParam } from './generated.js';
import { buildHealthy } from './healthy.js';
import { buildStatefulsetQuorumDeadlock } from './statefulset-quorum-deadlock.js';

/** A named scenario and the numeric parameters it accepts. */
interface ScenarioDefinition {
  description: string;
  params: Record<string, { default: number; min: number; description: string }>;
  build(params: Record<string, number>): Scenario;
}

const SCENARIOS: Record<string, ScenarioDefinition> = {
  'statefulset-quorum-deadlock': {
    description:
      'a 3-replica CockroachDB StatefulSet (OrderedReady) stuck: cockroachdb-0 never becomes Ready without a quorum, so -1 and -2 are never created',
    params: {},
    build: buildStatefulsetQuorumDeadlock,
  },
  healthy: {
    description: 'a small cluster where nothing is wrong: ready Deployment and StatefulSet, no restarts, Normal events only',
    params: {},
    build: buildHealthy,
  },
  generated: {
    description: 'a generated cluster of any size for benchmarks; logs are produced lazily',
    params: GENERATED_PARAMS,
    build: (params) => buildGenerated(params as Record<GeneratedParam, number>),
  },
};

/** The built-in scenarios, by name. */
export function listScenarios(): { name: string; description: string }[] {
  return Object.entries(SCENARIOS).map(([name, definition]) => ({ name, description: definition.description }));
}

function completeParams(name: string, definition: ScenarioDefinition, given: Record<string, number>): Record<string, number> {
  const valid = Object.keys(definition.params);
  const complete: Record<string, number> = Object.fromEntries(Object.entries(definition.params).map(([key, spec]) => [key, spec.default]));
  for (const [key, value] of Object.entries(given)) {
    if (!valid.includes(key)) {
      const choices = valid.length > 0 ? `valid parameters: ${valid.join(', ')}` : 'it takes no parameters';
      throw new UsageError(`scenario ${name} has no parameter "${key}"; ${choices}`);
    }
    // `restarts` may be a fraction; every other parameter counts something.
    const integral = key === 'restarts' && value < 1 ? true : Number.isInteger(value);
    const min = definition.params[key]?.min ?? 0;
    if (!Number.isFinite(value) || value < min || !integral) {
      const kind = key === 'restarts' ? 'a fraction below 1 or an integer' : `an integer >= ${min}`;
      throw new UsageError(`scenario ${name}: parameter ${key} must be ${kind}, got ${value}`);
    }
    complete[key] = value;
  }
  return complete;
}

/** A built-in scenario by name; UsageError for an unknown name or a bad parameter. */
export function loadScenario(name: string, params: Record<string, number> = {}): Scenario {
  const definition = SCENARIOS[name];
  if (!definition) throw new UsageError(`unknown scenario "${name}"; valid scenarios: ${Object.keys(SCENARIOS).join(', ')}`);
  return definition.build(completeParams(name, definition, params));
}
