import type { CoderV1Usage } from '@snodo/coder-sdk';
import { z } from 'zod';
import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import type { AuditEventData, AuditEventType } from '../audit-trail/audit-event-vocabulary.js';
import type { AuditTrail } from '../audit-trail/index.js';
import type { BudgetWatch } from '../budget/budget-watch.js';
import type { EventChannel } from '../events/event-channel.js';
import { type JobPaths, type JobState, updateJobState } from '../jobs/index.js';
import type { RunContext } from './run-context.js';
import type { RunEvent, RunStage } from './run-event.js';
import type { RunTaskOptions } from './run-task-options.js';
import { toMicroDollars, type UsageLedger, type UsageReport } from './usage-ledger.js';

/** How long a change to `state.json` waits for the run's next write before it is written on its own. */
const LATER_STATE_MS = 50;

/**
 * One job in flight: its context, and the four things every stage does — report an event, append to the
 * audit log, update `state.json`, count usage. Stages are plain functions taking a `JobRun`, so each
 * stage's file holds only what that stage decides.
 */
export class JobRun {
  constructor(
    readonly context: RunContext,
    readonly options: RunTaskOptions,
    readonly jobId: string,
    readonly paths: JobPaths,
    readonly auditTrail: AuditTrail,
    private readonly events: EventChannel<RunEvent>,
    readonly usage: UsageLedger,
    readonly startedAt: number,
  ) {}

  /** The job's spending caps as usage arrives (SPEC §15); set by whoever starts or continues a job with caps. */
  budget: BudgetWatch | undefined;

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  emit(event: RunEvent): void {
    this.events.push(event);
  }

  note(level: 'info' | 'warn', message: string): void {
    this.emit({ type: 'job-note', jobId: this.jobId, level, message });
  }

  /** Appends one event of the vocabulary (`AuditEventDataByType`) to the job's audit trail. */
  audit<T extends AuditEventType>(type: T, data: AuditEventData<T>, actor?: string): Promise<unknown> {
    return appendAuditEvent(this.auditTrail, type, data, { job: this.jobId, ...(actor ? { actor } : {}) });
  }

  /**
   * Changes to `state.json` that can wait for the run's next write (a stage's start and end, a usage
   * figure, the mode, the coder, verdicts, an attempt's record): most are followed by another write within
   * milliseconds, which carries them. Each write is a lock, a temp file and a rename in the run's thread,
   * and with eight runs at once the filesystem makes each of those syscalls wait on the others' git work:
   * a mock run wrote 17 times, 13 of them such changes. What must be on disk before the next step (the
   * workspace a crash leaves behind, the job's end) is written at once with `updateState`.
   */
  readonly #laterState: ((state: JobState) => JobState)[] = [];
  /** Writes what waits when no other write came within `LATER_STATE_MS`, so a long stage still shows. */
  #laterStateTimer: NodeJS.Timeout | undefined;

  /**
   * A change to `state.json` that rides on the run's next write, or is written on its own within
   * `LATER_STATE_MS`: what `snodo task show` and the MCP job tools see of a running job lags by at most
   * that. A crash meanwhile loses it, as it loses a stage's end; the audit log is the durable record.
   */
  updateStateSoon(change: (state: JobState) => JobState): void {
    this.#laterState.push(change);
    if (this.#laterStateTimer !== undefined) return;
    this.#laterStateTimer = setTimeout(() => {
      this.#laterStateTimer = undefined;
      // Every write clears this timer, so something waits. A failed write keeps it for the next one
      // (updateState puts it back); the run's own next write then reports the failure.
      this.updateState(() => undefined).catch(() => {});
    }, LATER_STATE_MS);
    // The job's end always writes; a process that ends without it (a crash) has nothing to wait for.
    this.#laterStateTimer.unref();
  }

  /** Read-modify-write of the job's `state.json` (under its lock), with any change left for later first. */
  async updateState(mutate: (state: JobState) => JobState | undefined): Promise<JobState> {
    const later = this.#laterState.splice(0);
    clearTimeout(this.#laterStateTimer);
    this.#laterStateTimer = undefined;
    try {
      return await updateJobState(this.context.repositoryRoot, this.jobId, (state) => {
        const folded = later.reduce((current, change) => change(current), state);
        return mutate(folded) ?? folded;
      });
    } catch (error) {
      // Put back for the next write after a lock timeout or a full disk, but not after a state the schema
      // refused: that change would make every later write fail, the job's end included.
      if (!(error instanceof z.ZodError)) this.#laterState.unshift(...later);
      throw error;
    }
  }

  /** Throws the abort reason when the run was cancelled, so no new stage starts after Ctrl-C. */
  throwIfCancelled(): void {
    this.options.signal?.throwIfAborted();
  }

  /** Counts usage for a role, records it in `state.json` (with the run's next write) and reports a `usage` event. */
  recordUsage(role: string, report: UsageReport | CoderV1Usage): void {
    this.usage.add(role, report);
    const snapshot = this.usage.snapshot();
    this.updateStateSoon((state) => ({ ...state, usage: snapshot }));
    this.emit({
      type: 'usage',
      jobId: this.jobId,
      role,
      usage: report,
      totalTokens: this.usage.totalTokens(),
    });
  }

  /** Usage as audit data: integers only (cost in micro-dollars). */
  static auditUsage(report: UsageReport | CoderV1Usage | null | undefined): Record<string, unknown> | null {
    if (!report) return null;
    return {
      input_tokens: report.inputTokens,
      output_tokens: report.outputTokens,
      cached_input_tokens: report.cachedInputTokens,
      ...('cacheWriteTokens' in report && report.cacheWriteTokens
        ? { cache_write_tokens: report.cacheWriteTokens }
        : {}),
      cost_micro_usd: toMicroDollars(report.costUsd),
      source: report.source,
      model: report.model,
    };
  }

  /**
   * Runs one stage: reports `stage-start`/`stage-end`, records its timing in `state.json` (keyed by stage,
   * with the attempt for repeated stages; start and end go with the run's next write, `updateStateSoon`),
   * and passes any error through untouched.
   */
  async stage<T>(
    stage: RunStage,
    work: () => Promise<T>,
    options: { attempt?: number; detail?: string } = {},
  ): Promise<T> {
    this.throwIfCancelled();
    const key = options.attempt && options.attempt > 1 ? `${stage}#${options.attempt}` : stage;
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    this.emit({
      type: 'stage-start',
      jobId: this.jobId,
      stage,
      ...(options.attempt ? { attempt: options.attempt } : {}),
      ...(options.detail ? { detail: options.detail } : {}),
    });
    this.updateStateSoon((state) => ({ ...state, stages: { ...state.stages, [key]: { startedAt } } }));
    try {
      return await work();
    } finally {
      // Never negative, even when the wall clock stepped back meanwhile (the schema refuses it).
      const durationMs = Math.max(0, Date.now() - started);
      const endedAt = new Date().toISOString();
      this.updateStateSoon((state) => ({
        ...state,
        stages: { ...state.stages, [key]: { startedAt, endedAt, durationMs } },
      }));
      this.emit({
        type: 'stage-end',
        jobId: this.jobId,
        stage,
        durationMs,
        ...(options.attempt ? { attempt: options.attempt } : {}),
      });
    }
  }
}
