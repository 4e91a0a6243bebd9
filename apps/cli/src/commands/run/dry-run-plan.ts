import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import {
  constraintsForMode,
  executingModes,
  ModeUnknownError,
  type ProtocolMode,
  parseYamlSource,
  type RunContext,
  resolveBaseBranch,
  resolveCoderName,
  resolveModels,
  validatorsForMode,
} from '@snodo/core';
import { type CoderStatus, checkCoder } from '../../coders/check-coder.js';
import type { RunFlags } from './run-action.js';

/** One decision of a dry run: the value and where it came from. */
export interface Sourced<T> {
  readonly value: T;
  /** A machine-readable source (`flag`, `protocol`, `mock-flag`, `config:model`…). */
  readonly source: string;
}

/** What `snodo run --dry-run` resolves, without creating a job, a worktree or an audit event. */
export interface DryRunPlan {
  readonly dryRun: true;
  readonly task: string;
  readonly repositoryRoot: string;
  readonly protocol: { readonly path: string; readonly id: string; readonly warnings: readonly string[] };
  readonly mode: Sourced<string> & { readonly candidates: readonly string[] };
  readonly coder: Sourced<string> & { readonly displayName: string; readonly kind: string };
  readonly coderStatus: CoderStatus;
  readonly models: {
    readonly judging: Sourced<string | null>;
    readonly classifier: Sourced<string | null>;
    readonly coder: Sourced<string | null>;
  };
  readonly gates: {
    readonly preExecute: readonly { readonly id: string; readonly type: string }[];
    readonly postExecute: readonly { readonly id: string; readonly type: string }[];
    readonly constraints: readonly {
      readonly id: string;
      readonly predicate: string | null;
      readonly severity: string;
    }[];
  };
  readonly policy: string;
  readonly merge: Sourced<string>;
  readonly base: Sourced<string> & { readonly commit: string };
  readonly isolation: { readonly mode: 'repository' | 'none'; readonly directory: string };
  readonly timeoutSeconds: Sourced<number>;
  readonly maxFixAttempts: number;
}

/** Chooses the mode as the run would, without asking a classifier model. */
function chooseMode(
  context: RunContext,
  flags: RunFlags,
): DryRunPlan['mode'] & { readonly found: ProtocolMode } {
  const { protocol } = context;
  if (flags.mode !== undefined) {
    const found = protocol.modes.find((mode) => mode.mode_id === flags.mode);
    if (found === undefined) {
      throw new ModeUnknownError({ mode: flags.mode, available: protocol.modes.map((mode) => mode.mode_id) });
    }
    return { value: found.mode_id, source: 'flag', candidates: [found.mode_id], found };
  }
  const candidates = executingModes(protocol.modes);
  const initial = protocol.modes.find((mode) => mode.mode_id === protocol.initial_mode) ?? protocol.modes[0];
  if (initial === undefined) throw new ModeUnknownError({ mode: protocol.initial_mode, available: [] });
  const ids = candidates.map((mode) => mode.mode_id);
  if (candidates.length <= 1) {
    const found = candidates[0] ?? initial;
    return {
      value: found.mode_id,
      source: candidates.length === 1 ? 'single-mode' : 'initial-mode',
      candidates: ids,
      found,
    };
  }
  // Several modes can execute: the classifier picks one at run time. The initial mode stands in for it.
  return { value: initial.mode_id, source: 'classifier', candidates: ids, found: initial };
}

/** `execution.merge_strategy` only counts as the protocol's choice when the file actually sets it. */
function protocolSetsMergeStrategy(context: RunContext): boolean {
  try {
    const raw = parseYamlSource(readFileSync(context.protocolPath, 'utf8'), context.protocolPath).value as {
      execution?: { merge_strategy?: unknown };
    } | null;
    return raw?.execution?.merge_strategy !== undefined;
  } catch {
    return false;
  }
}

/**
 * Resolves everything a run would decide before it starts: mode, coder (and whether it is ready), models
 * per role, the gates of each phase, merge strategy, base branch and timeout, each with its source. Reads
 * only: the same rules as `runTask`, applied to the same config and protocol.
 */
export async function planDryRun(context: RunContext, task: string, flags: RunFlags): Promise<DryRunPlan> {
  const { protocol, registry } = context;
  const mode = chooseMode(context, flags);
  const mock = flags.mock === true;
  const selection = resolveCoderName({
    registry,
    mock,
    coderFlag: flags.coder,
    modeCoder: mode.found.coder,
    modeId: mode.found.mode_id,
    model: flags.model ?? context.config.model,
  });
  const registration = registry.registration(selection.coderId);
  const models = resolveModels({
    registry,
    coderRegistration: registration,
    modelFlag: flags.model,
    coderFlag: flags.coder,
    modeCoder: mode.found.coder,
    modeId: mode.found.mode_id,
    mock,
    config: context.config,
    modeCoderConfig: mode.found.coder_config,
  });
  const coderStatus = await checkCoder(registry, selection.coderId, context.config, context.env);
  const base = await resolveBaseBranch({
    repositoryRoot: context.repositoryRoot,
    base: flags.base,
    configuredBase: protocol.execution.base_branch,
  });
  const gate = (validator: { validator_id: string; validator_type: string }) => ({
    id: validator.validator_id,
    type: validator.validator_type,
  });
  // As in core: the mode's coder_config (when it is for this coder) over `coders.<id>` in config.
  const modeApplies = mode.found.coder === undefined || mode.found.coder === selection.coderId;
  const modeTimeout = modeApplies ? mode.found.coder_config.timeout_seconds : undefined;
  const configuredTimeout = context.config.coders?.[selection.coderId]?.timeout_seconds;
  const timeoutSeconds: Sourced<number> =
    flags.timeout !== undefined
      ? { value: flags.timeout, source: 'flag' }
      : typeof modeTimeout === 'number'
        ? { value: modeTimeout, source: 'protocol:coder_config.timeout_seconds' }
        : typeof configuredTimeout === 'number'
          ? { value: configuredTimeout, source: `config:coders.${selection.coderId}.timeout_seconds` }
          : { value: protocol.execution.coder_timeout_seconds, source: 'protocol' };
  const role = (resolved: { model: string | undefined; source: string }) => ({
    value: resolved.model ?? null,
    source: resolved.source,
  });
  return {
    dryRun: true,
    task,
    repositoryRoot: context.repositoryRoot,
    protocol: {
      path: relative(context.repositoryRoot, context.protocolPath),
      id: protocol.protocol_id,
      warnings: context.protocolWarnings.map(
        (issue) => `${issue.file}:${issue.line}:${issue.column}: ${issue.message}`,
      ),
    },
    mode: { value: mode.value, source: mode.source, candidates: mode.candidates },
    coder: {
      value: registration.id,
      source: selection.source,
      displayName: registration.displayName,
      kind: registration.kind,
    },
    coderStatus,
    models: { judging: role(models.judging), classifier: role(models.classifier), coder: role(models.coder) },
    gates: {
      preExecute: validatorsForMode(protocol, mode.value, 'pre_execute').map(gate),
      postExecute: validatorsForMode(protocol, mode.value, 'post_execute').map(gate),
      constraints: constraintsForMode(protocol, mode.value).map((constraint) => ({
        id: constraint.constraint_id,
        predicate: constraint.predicate ?? null,
        severity: constraint.severity,
      })),
    },
    policy: protocol.disagreement_policy,
    merge:
      flags.merge !== undefined
        ? { value: flags.merge, source: 'flag' }
        : {
            value: protocol.execution.merge_strategy,
            source: protocolSetsMergeStrategy(context) ? 'protocol' : 'default',
          },
    base: { value: base.baseBranch, source: base.source, commit: base.baseCommit },
    isolation:
      flags.isolation === false
        ? { mode: 'none', directory: context.repositoryRoot }
        : { mode: 'repository', directory: context.worktreesDirectory },
    timeoutSeconds,
    maxFixAttempts: protocol.execution.max_fix_attempts,
  };
}
