import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCoderEnvironment, type CoderV1Sandbox } from '@snodo/coder-sdk';
import { type GenerateVerdictOptions, generateVerdict, generateVerdictWithTools } from '@snodo/llm';
import {
  classifyValidator,
  type DiffContext,
  evaluatePolicy,
  type GateJudgeFunction,
  type GateJudgeRequest,
  type GateModeProfile,
  type GatePhase,
  type GateVerdict,
  type PolicyDecision,
  runGatePhase,
} from '../gates/index.js';
import {
  constraintsForMode,
  type Protocol,
  type ProtocolMode,
  validatorsForMode,
} from '../protocol/index.js';
import { takeJobGuard } from './job-guard.js';
import { JobRun } from './job-run.js';
import { preExecuteJudgeSource } from './pre-execute-judge-source.js';
import type { UsageReport } from './usage-ledger.js';

/** The verdicts of one gate phase and the policy's decision on them. */
export interface GatePhaseOutcome {
  readonly verdicts: readonly GateVerdict[];
  readonly decision: PolicyDecision;
}

function modeProfile(protocol: Protocol, mode: ProtocolMode): GateModeProfile {
  return {
    modeId: mode.mode_id,
    name: mode.name,
    ...(mode.description ? { description: mode.description } : {}),
    tools: mode.tools,
    validators: mode.validators.map((id) => ({
      id,
      type:
        protocol.validators.find((validator) => validator.validator_id === id)?.validator_type ?? 'unknown',
    })),
    transitions: mode.transitions,
  };
}

/** A judge with a `tools:` grant runs the bounded read-only tool loop; the rest answer in one completion. */
function verdictCall(request: GateJudgeRequest) {
  const tools = request.tools ?? [];
  if (tools.length === 0) return generateVerdict;
  return (options: GenerateVerdictOptions) =>
    generateVerdictWithTools({ ...options, tools, maxTurns: request.maxTurns });
}

/** Judges ask `@snodo/llm` for a verdict with the run's providers, keys and prices. */
function createJudge(run: JobRun): GateJudgeFunction {
  const { config, env, repositoryRoot } = run.context;
  return async (request) => {
    const answer = await verdictCall(request)({
      model: request.model,
      system: request.system,
      prompt: request.prompt,
      sharedPrefix: request.sharedPrefix,
      cacheKey: request.cacheKey,
      abortSignal: request.abortSignal,
      maxOutputTokens: config.llm?.validator?.max_tokens,
      temperature: config.llm?.validator?.temperature,
      settings: { providers: config.providers, env, prices: config.prices, resolveFrom: [repositoryRoot] },
    });
    return {
      verdict: answer.verdict,
      usage: { ...answer.usage, model: answer.model },
      model: answer.model,
    };
  };
}

/** A judge's usage as a ledger report; command gates and constraints use no model. */
function verdictUsage(verdict: GateVerdict): UsageReport | undefined {
  const usage = verdict.usage;
  if (usage?.inputTokens === undefined || usage.inputTokens === null) return undefined;
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens ?? 0,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    costUsd: usage.costUsd ?? null,
    source: usage.source === 'reported' ? 'reported' : 'estimated',
    model: verdict.model,
  };
}

function gateFileName(verdict: GateVerdict, attempt: number): string {
  const safeId = verdict.gateId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${String(attempt).padStart(2, '0')}-${verdict.phase}-${safeId}.json`;
}

/**
 * Runs one gate phase (SPEC §5) and decides on it: verdicts stream out as `gate-verdict` events as they
 * finish, each is audited and written with its evidence to `.snodo/jobs/<id>/gates/`, judges' usage is
 * counted, and the policy decision is audited.
 */
export async function runGates(
  run: JobRun,
  options: {
    phase: GatePhase;
    attempt: number;
    mode: ProtocolMode;
    worktreePath: string;
    judgingModel: string | undefined;
    diff?: DiffContext;
    /** The sandbox command gates run in; absent: unsandboxed (recorded as `sandbox: none`). */
    sandbox?: CoderV1Sandbox | undefined;
  },
): Promise<GatePhaseOutcome> {
  const { protocol } = run.context;
  const pending: Promise<unknown>[] = [];
  const onVerdict = (verdict: GateVerdict) => {
    const usage = verdictUsage(verdict);
    run.emit({
      type: 'gate-verdict',
      jobId: run.jobId,
      phase: verdict.phase,
      attempt: options.attempt,
      gateId: verdict.gateId,
      gateType: verdict.gateType,
      severity: verdict.severity,
      error: verdict.error,
      justification: verdict.justification,
      durationMs: verdict.durationMs,
    });
    writeFileSync(
      join(run.paths.gates, gateFileName(verdict, options.attempt)),
      `${JSON.stringify({ attempt: options.attempt, ...verdict }, null, 2)}\n`,
    );
    pending.push(
      run.audit('gate-verdict', {
        phase: verdict.phase,
        attempt: options.attempt,
        gate_id: verdict.gateId,
        gate_type: verdict.gateType,
        kind: verdict.kind,
        severity: verdict.severity,
        error: verdict.error,
        original_severity: verdict.originalSeverity,
        justification: verdict.justification,
        findings: verdict.findings.map((finding) => ({ ...finding })),
        model: verdict.model,
        duration_ms: verdict.durationMs,
        usage: JobRun.auditUsage(usage),
        tool_calls: verdict.toolCalls?.map((call) => ({ ...call })),
      }),
    );
    if (usage) run.recordUsage('judges', usage);
  };

  const siblings = protocol.modes.filter((mode) => mode.mode_id !== options.mode.mode_id);
  const validators = validatorsForMode(protocol, options.mode.mode_id);
  // Command gates run the project's scripts, which the coder could have rewritten: guarded like the coder.
  const runsCode = validators.some(
    (validator) =>
      (validator.evaluation_phase ?? 'pre_execute') === options.phase &&
      classifyValidator(validator) === 'command',
  );
  const guard = runsCode ? await takeJobGuard(run) : undefined;
  const judgeToolSource = await preExecuteJudgeSource(run, options.phase, validators);
  const verdicts = await runGatePhase({
    phase: options.phase,
    validators,
    constraints: constraintsForMode(protocol, options.mode.mode_id),
    context: {
      task: run.options.task,
      worktreePath: options.worktreePath,
      ...(options.diff ? { diff: options.diff } : {}),
      // Command gates run the project's own scripts: an allow-listed environment without any key, and
      // CI=true so test runners do not wait in watch mode.
      env: { ...buildCoderEnvironment({ parentEnv: run.context.env, credentials: {} }), CI: 'true' },
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      knownSecrets: run.context.knownSecrets,
      jobId: run.jobId,
      ...(judgeToolSource ? { judgeToolSource } : {}),
      ...(options.judgingModel ? { judgeModel: options.judgingModel } : {}),
      mode: modeProfile(protocol, options.mode),
      siblingModes: siblings.map((mode) => modeProfile(protocol, mode)),
    },
    concurrency: protocol.execution.gate_concurrency,
    warmCache: protocol.execution.warm_judge_cache ?? true,
    judge: createJudge(run),
    ...(run.signal ? { signal: run.signal } : {}),
    onVerdict,
  });
  await Promise.all(pending);
  await guard?.verify(`the ${options.phase === 'pre_execute' ? 'pre' : 'post'}-execute command gates`);

  const decision = evaluatePolicy(verdicts, {
    policy: protocol.disagreement_policy,
    quorumThreshold: protocol.quorum_threshold,
  });
  run.updateStateSoon((state) => ({
    ...state,
    verdicts: [
      ...state.verdicts,
      ...verdicts.map((verdict) => ({
        gateId: verdict.gateId,
        gateType: verdict.gateType,
        phase: verdict.phase,
        attempt: options.attempt,
        severity: verdict.severity,
        error: verdict.error,
        justification: verdict.justification,
        ...(verdict.originalSeverity ? { originalSeverity: verdict.originalSeverity } : {}),
        ...(verdict.model ? { model: verdict.model } : {}),
        durationMs: verdict.durationMs,
        ...(verdict.toolCalls ? { toolCalls: verdict.toolCalls.map((call) => ({ ...call })) } : {}),
      })),
    ],
  }));
  await run.audit('policy-decide', {
    phase: options.phase,
    attempt: options.attempt,
    policy: decision.policy,
    action: decision.action,
    halt_reason: decision.haltReason,
    counts: { ...decision.counts },
    constraint_counts: { ...decision.constraintCounts },
    justification: decision.justification,
  });
  return { verdicts, decision };
}
