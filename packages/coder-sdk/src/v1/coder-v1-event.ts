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
    };
