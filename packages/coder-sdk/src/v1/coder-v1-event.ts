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
      /** Usage so far (cumulative for this attempt), when the coder reports it while running. */
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
