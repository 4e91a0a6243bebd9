import type { CoderV1Sandbox } from '@snodo/coder-sdk';
import { describeError, startStopwatch } from '../elapsed.js';
import type { GatePhase } from '../gate-phase.js';
import type { GateValidatorSpec } from '../gate-validator-spec.js';
import type { GateVerdict } from '../gate-verdict.js';
import { detectTestCommand } from './detect-test-command.js';
import type { GateCommandRequest, GateCommandRunner } from './gate-command-runner.js';
import { displayArgv, lastLines, lastNonEmptyLine } from './output-tail.js';

/** The default `tooling.timeout`, in seconds, as in the Python original. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 300;

/** What a command gate needs besides its validator. */
export interface CommandGateOptions {
  /** The phase being run. */
  readonly phase: GatePhase;
  /** The task worktree, where the command runs and markers are looked for. */
  readonly worktreePath: string;
  /** The command's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Runs the command. */
  readonly runCommand: GateCommandRunner;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** The job's sandbox: the command runs inside it (SPEC §12). */
  readonly sandbox?: CoderV1Sandbox;
}

type ResolvedCommand =
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'none'; readonly notes: readonly string[] }
  | {
      readonly kind: 'run';
      readonly command: GateCommandRequest['command'];
      readonly display: string;
      readonly source: 'configured' | 'detected';
      readonly marker?: string;
    };

/** The configured command, else the detected one, else why there is none. */
function resolveCommand(spec: GateValidatorSpec, worktreePath: string): ResolvedCommand {
  const configured: unknown = spec.tooling?.test_command;
  if (typeof configured === 'string' && configured.trim() !== '') {
    return { kind: 'run', command: { shell: configured }, display: configured, source: 'configured' };
  }
  if (
    Array.isArray(configured) &&
    configured.length > 0 &&
    configured.every((part) => typeof part === 'string')
  ) {
    const argv = configured as readonly string[];
    return { kind: 'run', command: { argv }, display: displayArgv(argv), source: 'configured' };
  }
  if (configured !== undefined && configured !== null) {
    return { kind: 'invalid', reason: 'tooling.test_command must be a non-empty string or list of strings' };
  }
  const detection = detectTestCommand(worktreePath);
  if (!detection.found) return { kind: 'none', notes: detection.notes };
  const { argv, marker } = detection.command;
  return { kind: 'run', command: { argv }, display: displayArgv(argv), source: 'detected', marker };
}

/**
 * Runs a `quality` validator: its `tooling.test_command`, else the command detected from marker files.
 * Exit 0 → pass with the last lines as evidence; exit ≠ 0 → blocker with the output tail; timeout →
 * blocker naming the limit; a command that cannot start → blocker with the cause; nothing configured or
 * detected → warn explaining how to set one. The severity cap is applied by the caller.
 */
export async function evaluateCommandGate(
  spec: GateValidatorSpec,
  options: CommandGateOptions,
): Promise<GateVerdict> {
  const elapsed = startStopwatch();
  const base = {
    gateId: spec.validator_id,
    gateType: spec.validator_type,
    kind: 'command' as const,
    phase: options.phase,
  };
  const id = spec.validator_id;
  const configuredTimeout: unknown = spec.tooling?.timeout ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  const resolved = resolveCommand(spec, options.worktreePath);
  const misconfigured = (reason: string): GateVerdict => {
    const justification = `Validator ${id} is misconfigured: ${reason}. Fix it in .snodo/protocol.yml.`;
    return {
      ...base,
      severity: 'blocker',
      error: true,
      justification,
      findings: [],
      cause: { kind: 'configuration', code: 'PROTOCOL_INVALID', message: justification },
      durationMs: elapsed(),
    };
  };
  if (resolved.kind === 'invalid') return misconfigured(resolved.reason);
  if (
    typeof configuredTimeout !== 'number' ||
    !Number.isFinite(configuredTimeout) ||
    configuredTimeout <= 0
  ) {
    return misconfigured(
      `tooling.timeout must be a positive number of seconds, got ${JSON.stringify(configuredTimeout)}`,
    );
  }
  const timeoutSeconds = configuredTimeout;
  if (resolved.kind === 'none') {
    const why = resolved.notes.length > 0 ? ` (${resolved.notes.join('; ')})` : '';
    const justification =
      `No test command configured or detected in the worktree${why}. Set tooling.test_command on ` +
      `validator ${id} in .snodo/protocol.yml, e.g. test_command: "npm test" or ["pytest", "-q"].`;
    return {
      ...base,
      severity: 'warn',
      error: false,
      justification,
      findings: [],
      // Only the protocol's author can add a test command: the fix loop must not ask the coder to.
      cause: { kind: 'configuration', code: 'TEST_COMMAND_NOT_FOUND', message: justification },
      evidence: { source: 'none', notes: resolved.notes },
      durationMs: elapsed(),
    };
  }
  const request: GateCommandRequest = {
    command: resolved.command,
    cwd: options.worktreePath,
    env: options.env,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  };
  let result: Awaited<ReturnType<GateCommandRunner>>;
  try {
    result = await options.runCommand(request);
  } catch (error) {
    result = {
      outcome: 'spawn-failed',
      exitCode: null,
      signal: null,
      output: '',
      outputTruncated: false,
      spawnError: describeError(error),
    };
  }
  const shown = `\`${resolved.display}\``;
  const failed = result.outcome !== 'exited' || result.exitCode !== 0;
  const evidence = {
    command: resolved.display,
    source: resolved.source,
    ...(resolved.marker ? { marker: resolved.marker } : {}),
    outcome: result.outcome,
    exitCode: result.exitCode,
    signal: result.signal,
    timeoutMs: request.timeoutMs,
    outputTail: failed ? lastLines(result.output, 60, 6000) : lastLines(result.output, 10, 1500),
    outputTruncated: result.outputTruncated,
    ...(result.spawnError ? { spawnError: result.spawnError } : {}),
  };
  const last = lastNonEmptyLine(result.output);
  let justification: string;
  if (result.outcome === 'exited' && result.exitCode === 0) {
    justification = `Tests passed: ${shown} exited 0${last ? ` (${last})` : ''}.`;
  } else if (result.outcome === 'timed-out') {
    justification =
      `${shown} did not finish within ${timeoutSeconds}s; its process group was killed. Raise ` +
      `tooling.timeout of validator ${id} or look for a hanging test.`;
  } else if (result.outcome === 'aborted') {
    justification = `${shown} was cancelled; its process group was killed.`;
  } else if (result.outcome === 'spawn-failed') {
    justification =
      `Could not run ${shown}: ${result.spawnError ?? 'unknown cause'}. Install it or set ` +
      `tooling.test_command of validator ${id} in .snodo/protocol.yml.`;
  } else if (result.exitCode === null) {
    justification = `Tests failed: ${shown} was killed by ${result.signal ?? 'a signal'}${last ? `: ${last}` : ''}.`;
  } else {
    const notFound =
      result.exitCode === 127 && 'shell' in resolved.command ? ' (the shell could not find the command)' : '';
    justification = `Tests failed: ${shown} exited with code ${result.exitCode}${notFound}${last ? `: ${last}` : ''}.`;
  }
  const cause = unavailableCause(result, justification);
  return {
    ...base,
    severity: failed ? 'blocker' : 'pass',
    error: false,
    justification,
    findings: failed ? [{ message: justification }] : [],
    evidence,
    ...(cause ? { cause } : {}),
    durationMs: elapsed(),
  };
}

/**
 * A command that never ran (not found, could not start, the sandbox did not start) or whose shell could
 * not find a program (exit 127, `mocha: not found`): the gate's tool is missing, which is the environment's
 * doing, not the change's. A job that halts on it is an outage (exit 3), and no coder attempt is asked to
 * fix it.
 */
function unavailableCause(
  result: Awaited<ReturnType<GateCommandRunner>>,
  justification: string,
): GateVerdict['cause'] {
  if (result.outcome === 'spawn-failed') {
    const sandbox = result.spawnError?.startsWith('the sandbox') === true;
    return {
      kind: 'environment',
      code: sandbox ? 'SANDBOX_UNAVAILABLE' : 'GATE_COMMAND_UNAVAILABLE',
      message: justification,
    };
  }
  if (result.outcome === 'exited' && result.exitCode === 127) {
    return { kind: 'environment', code: 'GATE_COMMAND_UNAVAILABLE', message: justification };
  }
  return undefined;
}
