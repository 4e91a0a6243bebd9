import type { OutputStream } from '../../output/palette.js';

/** A stream that can report write errors (`process.stdout`); the CLI's `OutputStream` may not. */
type ErrorListener = (error: NodeJS.ErrnoException) => void;

interface ErrorEmitter {
  on(event: 'error', listener: ErrorListener): unknown;
  off(event: 'error', listener: ErrorListener): unknown;
  listeners(event: 'error'): ErrorListener[];
}

function canReportErrors(stream: OutputStream): stream is OutputStream & ErrorEmitter {
  const candidate = stream as Partial<ErrorEmitter>;
  return (
    typeof candidate.on === 'function' &&
    typeof candidate.off === 'function' &&
    typeof candidate.listeners === 'function'
  );
}

/** The cancellation a closed output stream causes. */
export interface ClosedOutputWatch {
  /** Aborted when stdout or stderr is closed under the run (`snodo run … | head -2`). */
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * Watches the run's output streams for a reader that went away (EPIPE, `snodo run … | head -2`): the run
 * is cancelled through `signal`, so the job ends `cancelled` with its `job-end` audited and its locks
 * released, instead of the process dying on an unhandled write error mid-run and leaving a stale lock.
 * NOTE: Node reports a closed pipe as an `error` event on the stream, asynchronously, on the write after
 * the reader closed; without a listener it is an uncaught exception that kills the process at once. The
 * entry point (`cli.ts`) exits on EPIPE for commands that only print; while a run is going, the run's
 * watcher stands in for those listeners (an exit there would leave the job `running` and its locks held),
 * and gives them back when the run ends with its pipes open.
 */
export function watchClosedOutput(streams: readonly OutputStream[]): ClosedOutputWatch {
  const controller = new AbortController();
  const listener = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') return;
    if (!controller.signal.aborted) {
      controller.abort(new Error('Cancelled: the output stream was closed (EPIPE).'));
    }
  };
  const watched = streams.filter(canReportErrors).map((stream) => {
    const previous = stream.listeners('error');
    for (const other of previous) stream.off('error', other);
    stream.on('error', listener);
    return { stream, previous };
  });
  return {
    signal: controller.signal,
    dispose() {
      // Writes after the run (the summary) may still hit the closed pipe: keep swallowing those; the
      // command then ends with the cancelled run's exit code.
      if (controller.signal.aborted) return;
      for (const { stream, previous } of watched) {
        stream.off('error', listener);
        for (const other of previous) stream.on('error', other);
      }
    },
  };
}
