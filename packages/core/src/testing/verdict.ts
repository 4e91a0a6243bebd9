import type { GateVerdict } from '../gates/gate-verdict.js';

/** A verdict for policy tests; `kind` defaults to a judge. */
export function verdict(
  gateId: string,
  severity: GateVerdict['severity'],
  extra: Partial<GateVerdict> = {},
): GateVerdict {
  return {
    gateId,
    gateType: 'security',
    kind: 'judge',
    phase: 'post_execute',
    severity,
    justification: `${gateId} says ${severity}`,
    findings: [],
    error: false,
    durationMs: 1,
    ...extra,
  };
}
