import { processStartTimeMs } from '@snodo/foundation';
import type { JobRun } from './job-run.js';

/**
 * Keeps the coder's process group in `state.json` while it runs (see `JobState.coderProcess`), so the next
 * start can stop what a crashed snodo left behind. The write starts as soon as the coder reports its
 * process and is awaited before the record is cleared.
 */
export class CoderProcessRecord {
  private recording: Promise<unknown> | undefined;

  constructor(private readonly run: JobRun) {}

  /** Records the process group the coder reported (its `coder-process` event). */
  record(pid: number, processGroup: number, tag: string | undefined): void {
    this.recording = this.run
      .updateState((state) => ({
        ...state,
        coderProcess: { pid, processGroup, startTimeMs: processStartTimeMs(pid), ...(tag ? { tag } : {}) },
      }))
      .catch(() => undefined);
  }

  /** Clears the record once the attempt is over (after its pending write); nothing to do if none was made. */
  async forget(): Promise<void> {
    if (this.recording === undefined) return;
    await this.recording;
    await this.run.updateState((state) => {
      const { coderProcess: _ended, ...rest } = state;
      return rest;
    });
  }
}
