/**
 * When a gate runs: `pre_execute` checks the task text before the coder starts; `post_execute` checks the
 * real diff `base..HEAD` after it. The protocol's third value, `mode_transition`, is accepted by the schema
 * but never run (the Python original never ran it either), so the runner simply finds no gate for it.
 */
export type GatePhase = 'pre_execute' | 'post_execute';

/** The phase a validator runs in when its `evaluation_phase` is absent, as in the protocol schema. */
export const DEFAULT_EVALUATION_PHASE: GatePhase = 'pre_execute';
