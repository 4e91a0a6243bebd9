import type { DiffContext } from '../constraints/diff-context.js';
import type { GateModeProfile } from '../gate-mode-profile.js';
import type { GatePhase } from '../gate-phase.js';
import type { GateValidatorSpec } from '../gate-validator-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { JUDGE_ANSWER_RULES, type JudgePrompt, renderCriteria } from './build-judge-prompt.js';
import { DEFAULT_MAX_DIFF_CHARS, renderChangeSections } from './judge-change-sections.js';

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

/**
 * Builds the protocol-adherence judge's prompt: does the task belong to the current mode, or to one of its
 * siblings? Pass when it fits; warn or blocker naming the mode it belongs to otherwise.
 */
export function buildProtocolAdherencePrompt(input: ProtocolAdherencePromptInput): JudgePrompt {
  const system = [
    'You are a protocol-adherence validator. A team protocol splits work into modes, each with its own tools ' +
      'and checks. You decide whether a task belongs to the mode it was routed to.',
    'Severity "pass" when it belongs there; "warn" when it mostly fits but part of it belongs to another mode; ' +
      '"blocker" when it belongs to another mode. Name the mode it belongs to in the justification.',
    JUDGE_ANSWER_RULES,
  ].join(' ');
  const sections = [
    '## Task',
    input.task,
    '',
    `## Current mode`,
    renderMode(input.mode),
    '',
    '## Sibling modes',
    input.siblingModes.length > 0 ? input.siblingModes.map(renderMode).join('\n\n') : '(none)',
  ];
  const criteria = input.validator.criteria ?? [];
  if (criteria.length > 0) sections.push('', renderCriteria(criteria));
  let diffTruncated = false;
  if (input.phase === 'post_execute' && input.diff) {
    const change = renderChangeSections(
      input.diff,
      input.commandResults ?? [],
      input.maxDiffChars ?? DEFAULT_MAX_DIFF_CHARS,
    );
    sections.push('', change.text);
    diffTruncated = change.diffTruncated;
  }
  return { system, prompt: sections.join('\n'), diffTruncated };
}
