import { EXIT_CODES } from './exit-codes.js';

/** The cancellation of one long command (`snodo run`, `snodo task approve`). */
export interface InterruptListener {
  /** Aborted on the first Ctrl-C (or SIGTERM, SIGHUP); hand it to core. */
  readonly signal: AbortSignal;
  /** Stops listening; call when the command ends. */
  dispose(): void;
}

/** The signals that cancel a run: Ctrl-C, a polite kill, and a closed terminal. */
const cancellingSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ctrl-C handling for a run: the first SIGINT, SIGTERM or SIGHUP (the terminal was closed) aborts
 * `signal`, so core stops the coder's process group and keeps the job as `cancelled` with its audit trail
 * closed properly; `onFirst` tells the user. A second one exits at once with 130, for when a user does not
 * want to wait. NOTE: without a SIGHUP handler Node exits at once on a closed terminal, leaving the job
 * `running` and the coder's group alive until the next start reconciles them.
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
  for (const name of cancellingSignals) process.on(name, handler);
  return {
    signal: controller.signal,
    dispose() {
      for (const name of cancellingSignals) process.off(name, handler);
    },
  };
}
