import type { ProtocolConstraint } from './protocol-constraint-schema.js';
import type { ProtocolMode } from './protocol-mode-schema.js';
import type { Protocol } from './protocol-schema.js';
import type { EvaluationPhase, ProtocolValidator } from './protocol-validator-schema.js';

/** The mode with `modeId`, or `undefined`. */
export function findMode(protocol: Protocol, modeId: string): ProtocolMode | undefined {
  return protocol.modes.find((mode) => mode.mode_id === modeId);
}

/**
 * The validators a mode runs, in the mode's order (verdicts are reported in protocol order), optionally
 * only those of one phase. Ids that name no validator are skipped: a loaded protocol has none (WF3).
 */
export function validatorsForMode(
  protocol: Protocol,
  modeId: string,
  phase?: EvaluationPhase,
): ProtocolValidator[] {
  const mode = findMode(protocol, modeId);
  if (mode === undefined) return [];
  return mode.validators.flatMap((id) => {
    const validator = protocol.validators.find((candidate) => candidate.validator_id === id);
    if (validator === undefined) return [];
    return phase === undefined || validator.evaluation_phase === phase ? [validator] : [];
  });
}

/**
 * Every constraint checked for a task in `modeId`: `global_constraints`, then the mode's own, then those
 * declared on the validators the mode lists (the loader warns about the last kind, because the Python
 * original declared but never evaluated them).
 */
export function constraintsForMode(protocol: Protocol, modeId: string): ProtocolConstraint[] {
  const mode = findMode(protocol, modeId);
  if (mode === undefined) return [...protocol.global_constraints];
  return [
    ...protocol.global_constraints,
    ...mode.constraints,
    ...validatorsForMode(protocol, modeId).flatMap((validator) => validator.constraints),
  ];
}
