import { EXIT_CODES } from './exit-codes.js';

/** The cancellation of one long command (`snodo run`, `snodo task approve`). */
export interface InterruptListener {
  /** Aborted on the first Ctrl-C (or SIGTERM); hand it to core. */
  readonly signal: AbortSignal;
  /** Stops listening; call when the command ends. */
  dispose(): void;
}

/**
 * Ctrl-C handling for a run: the first SIGINT (or SIGTERM) aborts `signal`, so core stops the coder and
 * keeps the job as `cancelled` with its audit trail closed properly; `onFirst` tells the user. A second
 * Ctrl-C exits at once with 130, for when a user does not want to wait.
 */
export function listenForInterrupts(onFirst: () => void): InterruptListener {
  const controller = new AbortController();
  let count = 0;
  const handler = () => {
    count += 1;
    if (count === 1) {
      controller.abort(new Error('Cancelled by the user (Ctrl-C).'));
      onFirst();
      return;
    }
    process.exit(EXIT_CODES.cancelled);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
