import { writeFileSync } from 'node:fs';
import { buildCoderPrompt, buildInstructions, type CoderPromptFinding } from '@snodo/coder-sdk';
import { constraintsForMode, type ProtocolMode } from '../protocol/index.js';
import type { JobRun } from './job-run.js';

/** What the coder is told in one attempt: the prompt, and the instructions file beside it. */
export interface AttemptPrompt {
  readonly prompt: string;
  readonly instructions: string;
}

/**
 * Builds the attempt's prompt (task, the mode's guidance and constraints, the findings of the attempt
 * before) and writes the instructions to the job's `instructions` file, which in-place coders read.
 */
export function writeAttemptPrompt(
  run: JobRun,
  options: { mode: ProtocolMode; attempt: number; findings: readonly CoderPromptFinding[] },
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
  return { prompt, instructions };
}
