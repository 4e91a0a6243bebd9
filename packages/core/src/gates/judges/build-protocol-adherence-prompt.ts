import type { DiffContext } from '../constraints/diff-context.js';
import type { GateModeProfile } from '../gate-mode-profile.js';
import type { GatePhase } from '../gate-phase.js';
import type { GateValidatorSpec } from '../gate-validator-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { renderCriteria } from './build-judge-prompt.js';
import { buildSharedJudgePrefix, JUDGE_SUFFIX_HEADING } from './build-shared-judge-prefix.js';
import { composeJudgePrompt, type JudgePrompt, type SharedJudgePrefix } from './judge-prompt-parts.js';

/** Everything the protocol-adherence prompt is made of. */
export interface ProtocolAdherencePromptInput {
  /** The `protocol` validator. */
  readonly validator: GateValidatorSpec;
  /** The phase. */
  readonly phase: GatePhase;
  /** The task text. */
  readonly task: string;
  /** The mode the task was routed to. */
  readonly mode: GateModeProfile;
  /** The protocol's other modes. */
  readonly siblingModes: readonly GateModeProfile[];
  /** The diff (post-execute). */
  readonly diff?: DiffContext;
  /** Command gate verdicts of the same phase (post-execute). */
  readonly commandResults?: readonly GateVerdict[];
  /** Cap on the diff text. */
  readonly maxDiffChars?: number;
  /** The phase's shared prefix, built once for all its judges; built from the fields above when absent. */
  readonly sharedPrefix?: SharedJudgePrefix;
}

function renderMode(profile: GateModeProfile): string {
  const lines = [`### ${profile.name} (${profile.modeId})`];
  if (profile.description) lines.push(profile.description);
  lines.push(`- tools: ${[...profile.tools].sort().join(', ') || '(none)'}`);
  const validators = profile.validators.map(({ id, type }) => `${id} (${type})`).join(', ');
  lines.push(`- validators: ${validators || '(none)'}`);
  const transitions = Object.entries(profile.transitions ?? {});
  if (transitions.length > 0) {
    lines.push(`- transitions: ${transitions.map(([event, target]) => `${event} → ${target}`).join(', ')}`);
  }
  return lines.join('\n');
}

const ADHERENCE_ROLE =
  'You are a protocol-adherence validator. A team protocol splits work into modes, each with its own tools ' +
  'and checks. You decide whether the task belongs to the mode it was routed to. Severity "pass" when it ' +
  'belongs there; "warn" when it mostly fits but part of it belongs to another mode; "blocker" when it ' +
  'belongs to another mode. Name the mode it belongs to in the justification.';

/**
 * The protocol judge's own part of the prompt: its question, the current and sibling mode profiles, and
 * its criteria if any. It comes after the phase's shared prefix, so the mode profiles do not break the
 * prefix the other judges share.
 */
export function buildProtocolAdherenceSuffix(
  input: Pick<ProtocolAdherencePromptInput, 'validator' | 'mode' | 'siblingModes'>,
): string {
  const sections = [
    ADHERENCE_ROLE,
    '',
    '## Current mode',
    renderMode(input.mode),
    '',
    '## Sibling modes',
    input.siblingModes.length > 0 ? input.siblingModes.map(renderMode).join('\n\n') : '(none)',
  ];
  const criteria = input.validator.criteria ?? [];
  if (criteria.length > 0) sections.push('', renderCriteria(criteria));
  return `${JUDGE_SUFFIX_HEADING}${sections.join('\n')}`;
}

/**
 * Builds the protocol-adherence judge's prompt: the phase's shared prefix, then whether the task belongs
 * to the current mode or to one of its siblings. Pass when it fits; warn or blocker naming the mode it
 * belongs to otherwise.
 */
export function buildProtocolAdherencePrompt(input: ProtocolAdherencePromptInput): JudgePrompt {
  const shared = input.sharedPrefix ?? buildSharedJudgePrefix(input);
  return composeJudgePrompt(shared, buildProtocolAdherenceSuffix(input));
}
