import type { CoderV1Sandbox } from '@snodo/coder-sdk';
import { classifyValidator } from './classify-validator.js';
import { evaluateCommandGate } from './commands/evaluate-command-gate.js';
import type { GateCommandRunner } from './commands/gate-command-runner.js';
import { runGateCommand } from './commands/run-gate-command.js';
import type { DiffContext } from './constraints/diff-context.js';
import { evaluateBuiltInGuards, evaluateConstraint } from './constraints/evaluate-constraint.js';
import { createPredicateRegistry, type PredicateRegistry } from './constraints/predicate-registry.js';
import { startStopwatch } from './elapsed.js';
import type { GateConstraintSpec } from './gate-constraint-spec.js';
import type { GateModeProfile } from './gate-mode-profile.js';
import { DEFAULT_EVALUATION_PHASE, type GatePhase } from './gate-phase.js';
import type { GateValidatorSpec } from './gate-validator-spec.js';
import type { GateVerdict } from './gate-verdict.js';
import { buildSharedJudgePrefix } from './judges/build-shared-judge-prefix.js';
import { evaluateJudgeGate } from './judges/evaluate-judge-gate.js';
import type { GateJudgeFunction } from './judges/gate-judge-function.js';
import { judgeCacheKey } from './judges/judge-cache-key.js';
import type { SharedJudgePrefix } from './judges/judge-prompt-parts.js';
import { type JudgeToolSource, judgeToolSourceFor } from './judges/judge-tools/judge-tool-source.js';
import { worthWarming } from './judges/worth-warming.js';
import { applySeverityCap } from './policy/apply-severity-cap.js';
import { runBounded } from './run-bounded.js';
import { runWarmFirst } from './run-warm-first.js';

/** The default `execution.gate_concurrency`. */
export const DEFAULT_GATE_CONCURRENCY = 4;

/** What the gates of a phase look at. */
export interface GateRunContext {
  /** The task text. */
  readonly task: string;
  /** The task worktree: command gates run here. */
  readonly worktreePath: string;
  /** The real diff `base..HEAD`; required in the post-execute phase (see `loadDiffContext`). */
  readonly diff?: DiffContext;
  /** The command gates' environment; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The run's judging model; a validator's `model` overrides it. */
  readonly judgeModel?: string;
  /** The current mode, for the `protocol` judge. */
  readonly mode?: GateModeProfile;
  /** The sibling modes, for the `protocol` judge. */
  readonly siblingModes?: readonly GateModeProfile[];
  /** Cap on the diff text in judge prompts (default 60 000 characters). */
  readonly maxDiffChars?: number;
  /** The sandbox command gates run in (SPEC §12); absent: they run unsandboxed. */
  readonly sandbox?: CoderV1Sandbox;
  /** Credential values snodo holds, for the built-in known-secrets guard. */
  readonly knownSecrets?: readonly string[];
  /** The job being gated: part of the judges' prompt-cache key. */
  readonly jobId?: string;
  /**
   * What judges with a `tools:` grant read. Default: post-execute, the worktree's repository at
   * `diff.headCommit` (base `diff.baseCommit`); pre-execute, none (such a judge gets an error verdict).
   */
  readonly judgeToolSource?: JudgeToolSource;
}

/** Options of `runGatePhase`. */
export interface RunGatePhaseOptions {
  /** The phase to run; validators of other phases are ignored. */
  readonly phase: GatePhase;
  /** The mode's validators, in protocol order (all phases; filtered here by `evaluation_phase`). */
  readonly validators: readonly GateValidatorSpec[];
  /** Global then mode constraints, in declared order; evaluated in the post-execute phase only. */
  readonly constraints?: readonly GateConstraintSpec[];
  /** What the gates look at. */
  readonly context: GateRunContext;
  /** `execution.gate_concurrency`: judges and command gates in flight at once (default 4). */
  readonly concurrency?: number;
  /**
   * `execution.warm_judge_cache`: one judge of the phase runs first, writing the shared prompt prefix to
   * the provider's cache, before the others fan out (default `true`), when the prefix is long enough to be
   * cached (`MIN_WARMABLE_PREFIX_CHARS`). `false` starts them all at once.
   */
  readonly warmCache?: boolean;
  /** Asks a model for a verdict (wired to `@snodo/llm`'s `generateVerdict`). */
  readonly judge?: GateJudgeFunction;
  /** Runs command gates; default `runGateCommand` (process group, killed on timeout). */
  readonly runCommand?: GateCommandRunner;
  /** Predicates for constraints; default `createPredicateRegistry()`. */
  readonly predicates?: PredicateRegistry;
  /** Cancels the phase: no new gate starts, running ones are stopped, and the call rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Called as each verdict is final (after the cap), for the `gate-verdict` event stream. */
  readonly onVerdict?: (verdict: GateVerdict) => void;
}

/** What every judge of a phase receives alike: the command results and the prompt prefix they make. */
interface PhaseJudgeInputs {
  readonly commandResults: readonly GateVerdict[];
  readonly sharedPrefix: SharedJudgePrefix;
  readonly cacheKey: string;
}

function noCriteriaVerdict(spec: GateValidatorSpec, phase: GatePhase): GateVerdict {
  const justification =
    `Validator ${spec.validator_id} (${spec.validator_type}) has no criteria configured, so there is nothing ` +
    'to evaluate. Add criteria: lines to it in .snodo/protocol.yml or remove it from the mode.';
  return {
    gateId: spec.validator_id,
    gateType: spec.validator_type,
    kind: 'judge',
    phase,
    severity: 'warn',
    error: false,
    justification,
    findings: [],
    // The protocol's author adds criteria; the fix loop must not ask the coder to.
    cause: { kind: 'configuration', code: 'PROTOCOL_INVALID', message: justification },
    durationMs: 0,
  };
}

/**
 * Runs the gates of one phase and returns their verdicts in protocol order: in the post-execute phase
 * first the built-in `.snodo` guard and the constraints (declared order), then the validators of the phase
 * (protocol order), whatever order they finished in.
 *
 * Judges and command gates run concurrently, at most `concurrency` at a time. In the post-execute phase
 * the command gates all finish before any judge starts, because judges receive their results alongside
 * the diff. Every judge of the phase gets the same prompt prefix; unless `warmCache` is `false`, the
 * first judge that calls a model runs alone before the others start, so it writes the provider's prompt
 * cache and they read it — when that prefix is long enough for a provider to cache (`worthWarming`);
 * a shorter one fans every judge out at once. `severity_cap` is applied to each validator's verdict before `onVerdict` sees it.
 */
export async function runGatePhase(options: RunGatePhaseOptions): Promise<GateVerdict[]> {
  const { phase, context, signal } = options;
  const concurrency = options.concurrency ?? DEFAULT_GATE_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`gate concurrency must be a whole number ≥ 1, got ${concurrency}`);
  }
  if (phase === 'post_execute' && context.diff === undefined) {
    throw new TypeError(
      'runGatePhase: the post_execute phase needs context.diff, the real diff base..HEAD (build it with loadDiffContext)',
    );
  }
  signal?.throwIfAborted();
  const emit = (verdict: GateVerdict) => {
    if (!signal?.aborted) options.onVerdict?.(verdict);
    return verdict;
  };

  const constraintVerdicts: GateVerdict[] = [];
  if (phase === 'post_execute' && context.diff !== undefined) {
    const predicateContext = {
      diff: context.diff,
      task: context.task,
      ...(context.knownSecrets ? { knownSecrets: context.knownSecrets } : {}),
    };
    const registry = options.predicates ?? createPredicateRegistry();
    for (const verdict of evaluateBuiltInGuards(predicateContext)) constraintVerdicts.push(emit(verdict));
    for (const constraint of options.constraints ?? []) {
      constraintVerdicts.push(emit(evaluateConstraint(constraint, predicateContext, registry)));
    }
  }

  const validators = options.validators.filter(
    (validator) => (validator.evaluation_phase ?? DEFAULT_EVALUATION_PHASE) === phase,
  );
  const routes = validators.map(classifyValidator);
  const env = context.env ?? process.env;
  const runCommand = options.runCommand ?? ((request) => runGateCommand(request));
  const finish = (spec: GateValidatorSpec, verdict: GateVerdict) =>
    emit(applySeverityCap(verdict, spec.severity_cap));

  const commandTask = (spec: GateValidatorSpec) => async () =>
    finish(
      spec,
      await evaluateCommandGate(spec, {
        phase,
        worktreePath: context.worktreePath,
        env,
        runCommand,
        ...(context.sandbox ? { sandbox: context.sandbox } : {}),
        ...(signal ? { signal } : {}),
      }),
    );
  // One prefix per phase, built once: every judge sends these same bytes first (see judge-prompt-parts.ts).
  const judgeInputs = (commandResults: readonly GateVerdict[]): PhaseJudgeInputs => {
    const sharedPrefix = buildSharedJudgePrefix({
      phase,
      task: context.task,
      commandResults,
      diff: phase === 'post_execute' ? context.diff : undefined,
      maxDiffChars: context.maxDiffChars,
    });
    return { commandResults, sharedPrefix, cacheKey: judgeCacheKey(sharedPrefix.text, context.jobId) };
  };
  const toolSource = judgeToolSourceFor(phase, context);
  const judgeTask = (spec: GateValidatorSpec, inputs: PhaseJudgeInputs) => async () => {
    const elapsed = startStopwatch();
    if (classifyValidator(spec) === 'no-criteria') {
      return finish(spec, { ...noCriteriaVerdict(spec, phase), durationMs: elapsed() });
    }
    const verdict = await evaluateJudgeGate(spec, {
      phase,
      task: context.task,
      ...inputs,
      ...(context.diff && phase === 'post_execute' ? { diff: context.diff } : {}),
      ...(options.judge ? { judge: options.judge } : {}),
      ...(context.judgeModel ? { judgeModel: context.judgeModel } : {}),
      ...(context.mode ? { mode: context.mode } : {}),
      ...(context.siblingModes ? { siblingModes: context.siblingModes } : {}),
      ...(context.maxDiffChars ? { maxDiffChars: context.maxDiffChars } : {}),
      ...(toolSource ? { toolSource } : {}),
      ...(signal ? { signal } : {}),
    });
    return finish(spec, verdict);
  };

  const byIndex = new Map<number, GateVerdict>();
  const commandIndexes = routes.flatMap((route, index) => (route === 'command' ? [index] : []));
  const judgeIndexes = routes.flatMap((route, index) => (route === 'command' ? [] : [index]));
  const spec = (index: number) => validators[index] as GateValidatorSpec;
  // The judge that writes the shared prefix to the provider's cache: the first that calls a model, when the
  // prefix is long enough for a provider to cache at all (`worthWarming`).
  const warmJudgeFor = (inputs: PhaseJudgeInputs) =>
    (options.warmCache ?? true) && worthWarming(inputs.sharedPrefix)
      ? routes.findIndex((route) => route === 'judge' || route === 'protocol')
      : -1;

  if (phase === 'post_execute') {
    const commandResults = await runBounded(
      commandIndexes.map((index) => commandTask(spec(index))),
      concurrency,
      signal,
    );
    commandIndexes.forEach((index, position) => {
      const verdict = commandResults[position];
      if (verdict) byIndex.set(index, verdict);
    });
    signal?.throwIfAborted();
    // The prefix (the diff, command results, a hash of them) only for a phase that has judges to send it.
    if (judgeIndexes.length > 0) {
      const finished = commandIndexes
        .map((index) => byIndex.get(index))
        .filter((verdict) => verdict !== undefined);
      const inputs = judgeInputs(finished);
      const position = judgeIndexes.indexOf(warmJudgeFor(inputs));
      const judged = await runWarmFirst(
        judgeIndexes.map((index) => judgeTask(spec(index), inputs)),
        position < 0 ? undefined : position,
        concurrency,
        signal,
      );
      judgeIndexes.forEach((index, position) => {
        const verdict = judged[position];
        if (verdict) byIndex.set(index, verdict);
      });
    }
  } else {
    const inputs = judgeIndexes.length > 0 ? judgeInputs([]) : undefined;
    const warmJudge = inputs === undefined ? -1 : warmJudgeFor(inputs);
    const all = await runWarmFirst(
      validators.map((validator, index) =>
        routes[index] === 'command' || inputs === undefined
          ? commandTask(validator)
          : judgeTask(validator, inputs),
      ),
      warmJudge < 0 ? undefined : warmJudge,
      concurrency,
      signal,
    );
    all.forEach((verdict, index) => {
      if (verdict) byIndex.set(index, verdict);
    });
  }
  signal?.throwIfAborted();
  const validatorVerdicts = validators
    .map((_, index) => byIndex.get(index))
    .filter((verdict) => verdict !== undefined);
  return [...constraintVerdicts, ...validatorVerdicts];
}
