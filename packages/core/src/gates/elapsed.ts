import { performance } from 'node:perf_hooks';

/** Starts a stopwatch; the returned function gives whole milliseconds (the audit log holds integers only). */
export function startStopwatch(): () => number {
  const start = performance.now();
  return () => Math.max(0, Math.round(performance.now() - start));
}

/** A short, single-line description of a thrown value for a justification. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const prefix = typeof code === 'string' && !error.message.includes(code) ? `${code}: ` : '';
    return `${prefix}${error.message}`;
  }
  return String(error);
}
