import type { GateVerdict } from '../gate-verdict.js';
import { compareSeverity, isSeverity } from '../severity.js';

/**
 * Applies a validator's `severity_cap`: a verdict above the cap is lowered to it, remembering
 * `originalSeverity` and `capped: true`. `error` is kept as is: an error capped to `warn` is still an
 * error and still halts `validator_error` (the Python original rebuilt the result without the flag, so an
 * erroring shadow-mode validator degraded to a plain warn). An absent cap changes nothing; an invalid cap
 * turns the verdict into an error, since the protocol cannot be what the user meant.
 */
export function applySeverityCap(verdict: GateVerdict, cap: string | null | undefined): GateVerdict {
  if (cap === undefined || cap === null) return verdict;
  if (!isSeverity(cap)) {
    return {
      ...verdict,
      severity: 'blocker',
      error: true,
      justification:
        `Validator ${verdict.gateId} has severity_cap "${cap}"; use pass, warn or blocker in .snodo/protocol.yml. ` +
        `(Its verdict was ${verdict.severity}: ${verdict.justification})`,
    };
  }
  if (compareSeverity(verdict.severity, cap) <= 0) return verdict;
  return { ...verdict, severity: cap, originalSeverity: verdict.severity, capped: true };
}
