import { generateStructured } from '@snodo/llm';
import { z } from 'zod';
import type { ModeChoice } from '../project/choose-mode.js';
import type { ProtocolMode } from '../protocol/index.js';
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
 * Settles the mode (SPEC §2 step 3) from the plan's choice: `--mode` or a single executing mode is final,
 * with no model call; with several, the classifier model picks one. A classifier that fails falls back to
 * the plan's mode with a warning, never silently: the choice and its source are audited.
 */
export async function classifyTask(
  run: JobRun,
  choice: ModeChoice,
  classifierModel: string | undefined,
): Promise<Classification> {
  const task = run.options.task;
  if (choice.source !== 'classifier') {
    return {
      mode: choice.mode,
      modeSource: choice.source,
      flowType: flowTypeFromKeywords(task),
      flowTypeSource: 'keywords',
    };
  }
  const candidates = choice.candidates;
  const initial = choice.mode;
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
    run.recordUsage('classifier', { ...answer.usage, model: answer.model });
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
