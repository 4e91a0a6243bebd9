import type { CoderV1Usage } from './coder-v1-usage.js';

/**
 * What a coder reports while it runs, through `request.emit`. Core forwards these as `coder-output` and
 * `usage` events on `runTask().events`, so the CLI can show progress and tokens so far.
 */
export type CoderV1Event =
  | {
      /** A chunk of the coder's output, already redacted of known secrets by the adapter base. */
      readonly type: 'coder-output';
      readonly stream: 'stdout' | 'stderr';
      readonly text: string;
    }
  | {
      /**
       * Usage so far (cumulative for this attempt, never a delta), when the coder reports it while running:
       * after each model call or step. Core checks the job's budget (`execution.max_cost_usd`,
       * `--max-tokens`) on every one: when the job's recorded spend plus this reaches a cap, core aborts
       * `request.abortSignal`, and the adapter stops the coder as it does on Ctrl-C (the supervisor kills the
       * process group). Whatever the coder left in the worktree is then committed by core and kept. A coder
       * that reports usage only in its result is checked when the attempt ends, so it may overshoot a cap
       * by one attempt; emitting this event is what makes a budget exact. Optional, and not versioned apart
       * from `coder-v1`: older cores forward it as a progress event only.
       */
      readonly type: 'usage';
      readonly usage: CoderV1Usage;
    }
  | {
      /** A short human-readable progress note ("reading src/app.ts", "running tests"). */
      readonly type: 'coder-progress';
      readonly message: string;
    }
  | {
      /**
       * The coder started a process in its own process group. Core records it in `state.json`, so that if
       * snodo itself is killed mid-run, the next start can stop that group instead of leaving it running.
       */
      readonly type: 'coder-process';
      /** The process id. */
      readonly pid: number;
      /** The process group to signal (the same number as `pid` for a group leader). */
      readonly processGroup: number;
      /**
       * The random `SNODO_PROCESS_TAG` in the process's environment. After a crash of snodo, core passes it
       * to `killTaggedProcesses(tag)` to stop descendants that left the group (`setsid`). Absent from
       * adapters built on older SDKs.
       */
      readonly tag?: string;
    };
