import { writeFileSync } from 'node:fs';
import { buildCoderPrompt, buildInstructions, type CoderPromptFinding } from '@snodo/coder-sdk';
import { constraintsForMode, type ProtocolMode } from '../protocol/index.js';
import type { JobRun } from './job-run.js';

/** What the coder is told in one attempt: the prompt, and the instructions file beside it. */
export interface AttemptPrompt {
  readonly prompt: string;
  readonly instructions: string;
}

/** What a coder continuing after a budget stop is told: the earlier work is there, finish the task. */
const CONTINUING =
  '## Continuing\n\nThe previous attempt was stopped when the job reached its budget, before it finished. ' +
  'What it changed so far is committed in this worktree. Continue from there: finish the task, keep what ' +
  'is right, and do not start over.';

/**
 * Builds the attempt's prompt (task, the mode's guidance and constraints, the findings of the attempt
 * before) and writes the instructions to the job's `instructions` file, which in-place coders read.
 */
export function writeAttemptPrompt(
  run: JobRun,
  options: {
    mode: ProtocolMode;
    attempt: number;
    findings: readonly CoderPromptFinding[];
    /** The attempt goes on with work a budget stop cut short (SPEC §15). */
    continuing?: boolean;
  },
): AttemptPrompt {
  const { mode } = options;
  const constraints = constraintsForMode(run.context.protocol, mode.mode_id).map(
    (constraint) => constraint.description,
  );
  const guidance = {
    modeName: mode.name,
    ...(mode.instructions ? { instructions: mode.instructions } : {}),
    constraints,
    ...(mode.scope ? { scope: mode.scope } : {}),
  };
  const prompt = buildCoderPrompt({
    task: run.options.task,
    ...guidance,
    findings: options.findings,
    attempt: options.attempt,
  });
  const instructions = buildInstructions(guidance);
  writeFileSync(run.paths.instructions, instructions);
  return { prompt: options.continuing === true ? `${prompt}\n\n${CONTINUING}` : prompt, instructions };
}
