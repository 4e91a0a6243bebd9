import type { GateValidatorSpec } from './gate-validator-spec.js';

/**
 * How the runner treats a validator:
 * - `command`: type `quality`, runs the test command;
 * - `protocol`: type `protocol`, the mode-adherence judge (criteria optional);
 * - `judge`: any other type with at least one criterion (built-in judge types and custom types alike);
 * - `no-criteria`: any other type without criteria, which yields a `warn` "no criteria configured"
 *   (as in the Python original: there is nothing to judge, and the warn makes that visible).
 */
export type ValidatorRoute = 'command' | 'protocol' | 'judge' | 'no-criteria';

/** Routes a validator by its type and criteria. */
export function classifyValidator(spec: GateValidatorSpec): ValidatorRoute {
  if (spec.validator_type === 'quality') return 'command';
  if (spec.validator_type === 'protocol') return 'protocol';
  const criteria = (spec.criteria ?? []).filter((criterion) => criterion.trim() !== '');
  return criteria.length > 0 ? 'judge' : 'no-criteria';
}
