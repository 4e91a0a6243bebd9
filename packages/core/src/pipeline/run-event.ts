import type { CoderV1Usage } from '@snodo/coder-sdk';
import type { RoleUsage } from '../jobs/index.js';
import type { RunTaskResult } from './run-task-result.js';

/**
 * The stages of a run, in order. `pre-gates` and `post-gates` are the two gate phases; `execute` and
 * `post-gates` repeat once per fix attempt.
 */
export type RunStage =
  | 'classify'
  | 'resolve'
  | 'isolate'
  | 'setup'
  | 'pre-gates'
  | 'execute'
  | 'post-gates'
  | 'land';

/**
 * What a run reports as it goes, through `runTask(options).events`. The CLI renders these; embedders may
 * too. Names match the audit log and `state.json`.
 */
export type RunEvent =
  | { readonly type: 'job-start'; readonly jobId: string; readonly task: string }
  | {
      readonly type: 'stage-start';
      readonly jobId: string;
      readonly stage: RunStage;
      readonly attempt?: number;
      /** A short description of what the stage is about to do ("coder my-cli", "3 gates"). */
      readonly detail?: string;
    }
  | {
      readonly type: 'stage-end';
      readonly jobId: string;
      readonly stage: RunStage;
      readonly attempt?: number;
      readonly durationMs: number;
      readonly detail?: string;
    }
  | {
      readonly type: 'gate-verdict';
      readonly jobId: string;
      readonly phase: 'pre_execute' | 'post_execute';
      readonly attempt: number;
      readonly gateId: string;
      readonly gateType: string;
      readonly severity: 'pass' | 'warn' | 'blocker';
      readonly error: boolean;
      readonly justification: string;
      readonly durationMs: number;
    }
  | {
      readonly type: 'coder-output';
      readonly jobId: string;
      readonly stream: 'stdout' | 'stderr';
      readonly text: string;
    }
  | { readonly type: 'coder-progress'; readonly jobId: string; readonly message: string }
  | {
      readonly type: 'usage';
      readonly jobId: string;
      readonly role: string;
      /** This call's or report's usage. */
      readonly usage: CoderV1Usage | RoleUsage;
      /** Input + output tokens of the whole job so far, every role. */
      readonly totalTokens: number;
    }
  | {
      /** Something a user should know that is not a failure (a warning, a deferred merge, a reconciliation). */
      readonly type: 'job-note';
      readonly jobId: string;
      readonly level: 'info' | 'warn';
      readonly message: string;
    }
  | { readonly type: 'job-end'; readonly jobId: string; readonly result: RunTaskResult };
