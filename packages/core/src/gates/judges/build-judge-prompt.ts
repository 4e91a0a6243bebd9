import type { DiffContext } from '../constraints/diff-context.js';
import type { GatePhase } from '../gate-phase.js';
import type { GateValidatorSpec } from '../gate-validator-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { buildSharedJudgePrefix, JUDGE_SUFFIX_HEADING } from './build-shared-judge-prefix.js';
import { composeJudgePrompt, type JudgePrompt, type SharedJudgePrefix } from './judge-prompt-parts.js';

export { JUDGE_ANSWER_RULES } from './build-shared-judge-prefix.js';
export type { JudgePrompt } from './judge-prompt-parts.js';

/** The built-in LLM judge types. Any other type with criteria is judged the same way, with a generic role. */
export const JUDGE_TYPES: readonly string[] = [
  'security',
  'architecture',
  'conventions',
  'performance',
  'testing',
  'planning',
  'llm',
];

const roles: Record<string, string> = {
  security:
    'You are a security reviewer. You look for vulnerabilities, leaked credentials, unsafe input handling, ' +
    'injection, and broken authentication or authorisation.',
  architecture:
    'You are an architecture reviewer. You judge structure: module boundaries, dependencies between layers, ' +
    'coupling, and whether the design fits the codebase.',
  conventions:
    "You are a conventions reviewer. You judge naming, formatting, file layout and whether the project's " +
    'established patterns are followed.',
  performance:
    'You are a performance reviewer. You look for needless work, unbounded growth, blocking calls on hot ' +
    'paths, and algorithmic problems.',
  testing:
    'You are a testing reviewer. You judge whether the behaviour is covered by meaningful tests that can fail.',
  planning:
    'You are a planning reviewer. You judge whether the task is clear, scoped and feasible before any code ' +
    'is written.',
  llm: 'You are a code reviewer.',
};

/** The role line of a judge type; a custom type gets a generic line naming it. */
export function judgeRole(validatorType: string): string {
  return roles[validatorType] ?? `You are a ${validatorType} validator.`;
}

/** Everything a judge prompt is made of. */
export interface JudgePromptInput {
  /** The validator being run. */
  readonly validator: GateValidatorSpec;
  /** The phase: only post-execute prompts carry the change. */
  readonly phase: GatePhase;
  /** The task text. */
  readonly task: string;
  /** The diff `base..HEAD` (post-execute). */
  readonly diff?: DiffContext;
  /** The command gates' verdicts of the same phase (post-execute). */
  readonly commandResults?: readonly GateVerdict[];
  /** Cap on the diff text; default 60 000 characters. */
  readonly maxDiffChars?: number;
  /** The phase's shared prefix, built once for all its judges; built from the fields above when absent. */
  readonly sharedPrefix?: SharedJudgePrefix;
}

/** The numbered criteria section. */
export function renderCriteria(criteria: readonly string[]): string {
  return ['## Criteria', ...criteria.map((criterion, index) => `${index + 1}. ${criterion}`)].join('\n');
}

/** A judge's own part of the prompt: its role, then its numbered criteria. */
export function buildJudgeSuffix(validator: GateValidatorSpec): string {
  return `${JUDGE_SUFFIX_HEADING}${judgeRole(validator.validator_type)}\n\n${renderCriteria(validator.criteria ?? [])}`;
}

/**
 * Builds an LLM judge's prompt: the phase's shared prefix (task, and for a post-execute judge the changed
 * files, the capped diff and the command-gate results), then the judge's role and numbered criteria.
 */
export function buildJudgePrompt(input: JudgePromptInput): JudgePrompt {
  const shared = input.sharedPrefix ?? buildSharedJudgePrefix(input);
  return composeJudgePrompt(shared, buildJudgeSuffix(input.validator));
}
