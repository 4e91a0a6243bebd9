/** The longest delay a Node timer takes; a longer one (or `Infinity`) would fire at once instead. */
const longestTimerMs = 2_147_483_647;

/** A timer delay Node accepts: at least 1 ms, at most ~24.8 days; `Infinity` means "practically never". */
export function timerDelay(milliseconds: number): number {
  return Number.isFinite(milliseconds)
    ? Math.min(Math.max(Math.trunc(milliseconds), 1), longestTimerMs)
    : longestTimerMs;
}

/** A line longer than this is not an event a CLI prints; it is skipped without being held in memory. */
const longestEventLine = 8 * 1024 * 1024;

/** Watches a stream line by line; see `createFinalLineWatch`. */
export interface FinalLineWatch {
  /** Takes the next chunk of stdout. */
  push(chunk: Buffer): void;
  /** Cancels a pending grace timer. */
  dispose(): void;
}

/**
 * Watches stdout line by line for the CLI's final event and, once seen, calls `onExpired` if the CLI is
 * still running after the grace. NOTE: Claude Code, OpenCode and others sometimes keep running after their
 * final event (anthropics/claude-code#25629, anomalyco/opencode#17516); without this a finished run would
 * wait for the idle limit.
 */
export function createFinalLineWatch(
  isFinalLine: ((line: string) => boolean) | undefined,
  graceMs: number,
  onExpired: () => void,
): FinalLineWatch {
  if (isFinalLine === undefined) return { push() {}, dispose() {} };
  let partial = '';
  let skipping = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    push(chunk) {
      if (timer !== undefined) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (skipping) {
          skipping = false;
          continue;
        }
        if (isFinalLine(line)) {
          timer = setTimeout(onExpired, timerDelay(graceMs));
          return;
        }
      }
      if (partial.length > longestEventLine) {
        partial = '';
        skipping = true;
      }
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
