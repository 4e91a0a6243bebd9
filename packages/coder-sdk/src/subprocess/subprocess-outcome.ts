import { CoderFailedError } from '../errors/coder-failed-error.js';
import { CoderNotInstalledError } from '../errors/coder-not-installed-error.js';
import { CoderTimeoutError } from '../errors/coder-timeout-error.js';
import { CoderAbortedError } from '../errors.js';
import type { SupervisedProcessOutcome } from '../process/supervised-process.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';

/** The coder an outcome belongs to, for its error. */
export interface OutcomeSubject {
  readonly id: string;
  readonly displayName: string;
  readonly installHint: string;
  readonly binary: string;
}

/** A process that started and ended on its own with a failure (not stopped by snodo). */
export function isFailedExit(outcome: SupervisedProcessOutcome): boolean {
  return (
    outcome.spawnError === undefined &&
    outcome.sandboxFailure === undefined &&
    outcome.stoppedBy === undefined &&
    (outcome.exitCode !== 0 || outcome.signal !== undefined)
  );
}

/**
 * The typed error for how a coder's process ended, or `undefined` for a success (an exit 0, or a stop after
 * the CLI's final event). A sandbox that could not start the CLI is `CODER_FAILED` quoting bubblewrap, so
 * a CLI hidden by the sandbox (installed under HOME) is not mistaken for a crash of the CLI.
 */
export function outcomeError(
  subject: OutcomeSubject,
  request: Pick<CoderV1Request, 'abortSignal' | 'timeoutMs' | 'sandbox'>,
  outcome: SupervisedProcessOutcome,
  limits: { readonly idleTimeoutMs: number; readonly stderrTail: string },
): Error | undefined {
  const who = { coderId: subject.id, displayName: subject.displayName };
  const { stderrTail } = limits;
  if (outcome.spawnError !== undefined) {
    if (request.sandbox !== undefined && outcome.spawnError.file === request.sandbox.executable) {
      return new CoderFailedError({
        ...who,
        reason:
          `could not start its sandbox: bubblewrap at ${outcome.spawnError.file} did not start ` +
          `(${outcome.spawnError.code ?? outcome.spawnError.message}); check \`snodo doctor\``,
        stderrTail,
      });
    }
    if (outcome.spawnError.code === 'ENOENT') {
      return new CoderNotInstalledError({ ...who, installHint: subject.installHint, binary: subject.binary });
    }
    return new CoderFailedError({
      ...who,
      reason: `could not start: ${outcome.spawnError.message}`,
      stderrTail,
    });
  }
  if (outcome.stoppedBy === 'abort')
    return new CoderAbortedError({ ...who, cause: request.abortSignal.reason });
  if (outcome.stoppedBy === 'final-event') return undefined;
  if (outcome.stoppedBy === 'wall-clock' || outcome.stoppedBy === 'idle') {
    return new CoderTimeoutError({
      ...who,
      limit: outcome.stoppedBy,
      timeoutMs: outcome.stoppedBy === 'wall-clock' ? request.timeoutMs : limits.idleTimeoutMs,
    });
  }
  if (outcome.sandboxFailure !== undefined) {
    return new CoderFailedError({
      ...who,
      exitCode: outcome.exitCode,
      reason:
        `could not run inside the sandbox: ${outcome.sandboxFailure} (a CLI installed under your home ` +
        'directory is hidden there: install it system-wide, or run with `execution.sandbox: off`)',
      stderrTail,
    });
  }
  if (outcome.exitCode !== 0 || outcome.signal !== undefined || outcome.stoppedBy !== undefined) {
    return new CoderFailedError({ ...who, exitCode: outcome.exitCode, signal: outcome.signal, stderrTail });
  }
  return undefined;
}

/** The transcript's last line for an attempt: how the process ended and who stopped it. */
export function describeOutcome(outcome: SupervisedProcessOutcome | undefined): string {
  if (outcome === undefined) return 'supervision failed';
  if (outcome.spawnError !== undefined) {
    return `could not start (${outcome.spawnError.code ?? outcome.spawnError.message})`;
  }
  const ending = outcome.signal === undefined ? `exit ${outcome.exitCode}` : `signal ${outcome.signal}`;
  const orphans = outcome.orphansKilled > 0 ? `; ${outcome.orphansKilled} escaped process(es) killed` : '';
  if (outcome.stoppedBy === 'final-event') {
    return `${ending}, stopped by snodo after the CLI's final event${orphans}`;
  }
  return outcome.stoppedBy === undefined
    ? `${ending}${orphans}`
    : `${ending}, stopped by snodo (${outcome.stoppedBy})${orphans}`;
}
