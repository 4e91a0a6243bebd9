import { generateStructured } from '@snodo/llm';
import { z } from 'zod';
import type { ProtocolMode } from '../protocol/index.js';
import { ModeCannotChangeCodeError, ModeUnknownError } from '../errors.js';
import type { JobRun } from './job-run.js';

/** The four flow types a task is labelled with, for reporting (SPEC §2 step 3). */
export const FLOW_TYPES = ['feature', 'defect', 'debt', 'risk'] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

/** Which mode runs the task and what kind of work it is, with where each answer came from. */
export interface Classification {
  readonly mode: ProtocolMode;
  readonly modeSource: 'flag' | 'single-mode' | 'initial-mode' | 'classifier' | 'classifier-fallback';
  readonly flowType: FlowType;
  readonly flowTypeSource: 'classifier' | 'keywords';
  readonly reason?: string;
}

// Logical tools through which a mode changes code; a mode without any of them cannot execute a task.
const EXECUTING_TOOLS = new Set(['edit', 'dispatch']);

/** Modes that can carry a task out (they hold an editing tool); routing chooses among these. */
export function executingModes(modes: readonly ProtocolMode[]): ProtocolMode[] {
  return modes.filter((mode) => mode.tools.some((tool) => EXECUTING_TOOLS.has(tool)));
}

/**
 * Refuses, before a job exists, a run that could only end with a coder in a mode that cannot change code:
 * `--mode` naming such a mode (a `reviewer`), or a protocol in which no mode can. Unknown modes are
 * `ModeUnknownError`.
 */
export function assertRunnableMode(modes: readonly ProtocolMode[], requested: string | undefined): void {
  const executing = executingModes(modes).map((mode) => mode.mode_id);
  if (requested === undefined) {
    if (executing.length === 0) throw new ModeCannotChangeCodeError({ executing });
    return;
  }
  const mode = modes.find((candidate) => candidate.mode_id === requested);
  if (mode === undefined) {
    throw new ModeUnknownError({ mode: requested, available: modes.map((candidate) => candidate.mode_id) });
  }
  if (!executing.includes(mode.mode_id)) {
    throw new ModeCannotChangeCodeError({ mode: mode.mode_id, tools: mode.tools, executing });
  }
}

/** A cheap, deterministic flow-type label used when no model is asked. */
export function flowTypeFromKeywords(task: string): FlowType {
  const text = task.toLowerCase();
  if (/\b(security|vulnerab|cve|secret|leak|exploit|injection|xss|csrf)\w*/.test(text)) return 'risk';
  if (/\b(fix|bug|crash|broken|regression|error|fails?|failing|wrong)\b/.test(text)) return 'defect';
  if (/\b(refactor|clean ?up|rename|deprecat|tech(nical)? debt|simplif|upgrade|migrate)\w*/.test(text)) {
    return 'debt';
  }
  return 'feature';
}

/**
 * Chooses the mode (SPEC §2 step 3): `--mode` wins; with one mode able to execute, that mode, with no
 * model call; with several, the classifier model picks one. A classifier that fails falls back to the
 * protocol's initial mode with a warning, never silently: the choice and its source are audited.
 */
export async function classifyTask(
  run: JobRun,
  classifierModel: string | undefined,
): Promise<Classification> {
  const { protocol } = run.context;
  const task = run.options.task;
  if (run.options.mode !== undefined) {
    const mode = protocol.modes.find((candidate) => candidate.mode_id === run.options.mode);
    if (!mode) {
      throw new ModeUnknownError({
        mode: run.options.mode,
        available: protocol.modes.map((candidate) => candidate.mode_id),
      });
    }
    return { mode, modeSource: 'flag', flowType: flowTypeFromKeywords(task), flowTypeSource: 'keywords' };
  }
  const candidates = executingModes(protocol.modes);
  // The fallback must be able to run the task too: the initial mode when it can change code, else the
  // first mode that can (a protocol may start in a planning mode).
  const declared = protocol.modes.find((mode) => mode.mode_id === protocol.initial_mode);
  const initial =
    candidates.find((mode) => mode === declared) ?? candidates[0] ?? declared ?? protocol.modes[0];
  if (!initial) throw new ModeUnknownError({ mode: protocol.initial_mode, available: [] });
  if (candidates.length <= 1) {
    return {
      mode: candidates[0] ?? initial,
      modeSource: candidates.length === 1 ? 'single-mode' : 'initial-mode',
      flowType: flowTypeFromKeywords(task),
      flowTypeSource: 'keywords',
    };
  }
  if (classifierModel === undefined) {
    run.note('warn', `No classifier model is configured; running in the initial mode '${initial.mode_id}'.`);
    return {
      mode: initial,
      modeSource: 'classifier-fallback',
      flowType: flowTypeFromKeywords(task),
      flowTypeSource: 'keywords',
      reason: 'no classifier model configured (set llm.classifier.model or pass -m)',
    };
  }
  const ids = candidates.map((mode) => mode.mode_id) as [string, ...string[]];
  const schema = z.object({
    mode_id: z.enum(ids),
    flow_type: z.enum(FLOW_TYPES),
    reason: z.string(),
  });
  const profiles = candidates
    .map(
      (mode) =>
        `- ${mode.mode_id} (${mode.name}): tools ${mode.tools.join(', ')}${mode.description ? `; ${mode.description}` : ''}`,
    )
    .join('\n');
  try {
    const answer = await generateStructured({
      model: classifierModel,
      schema,
      schemaName: 'classification',
      system:
        'You route software tasks to the mode of a team protocol that should carry them out, and label the ' +
        'kind of work: feature (new behaviour), defect (a bug fix), debt (refactoring, upgrades), risk ' +
        '(security or reliability exposure).',
      prompt: `## Task\n\n${task}\n\n## Modes\n\n${profiles}\n\nAnswer with the mode_id, the flow_type and a one-line reason.`,
      abortSignal: run.signal,
      maxOutputTokens: run.context.config.llm?.classifier?.max_tokens,
      temperature: run.context.config.llm?.classifier?.temperature ?? 0,
      settings: {
        providers: run.context.config.providers,
        env: run.context.env,
        prices: run.context.config.prices,
        resolveFrom: [run.context.repositoryRoot],
      },
    });
    await run.recordUsage('classifier', { ...answer.usage, model: answer.model });
    const mode = candidates.find((candidate) => candidate.mode_id === answer.object.mode_id) ?? initial;
    return {
      mode,
      modeSource: 'classifier',
      flowType: answer.object.flow_type,
      flowTypeSource: 'classifier',
      reason: answer.object.reason,
    };
  } catch (error) {
    run.signal?.throwIfAborted();
    const message = error instanceof Error ? error.message : String(error);
    run.note('warn', `The classifier failed (${message}); running in the initial mode '${initial.mode_id}'.`);
    return {
      mode: initial,
      modeSource: 'classifier-fallback',
      flowType: flowTypeFromKeywords(task),
      flowTypeSource: 'keywords',
      reason: `classifier failed: ${message}`,
    };
  }
}
