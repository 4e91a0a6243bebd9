import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * `false` when `pid` is gone. A killed process whose parent died first can stay a zombie when PID 1 of a
 * container does not reap orphans; a zombie runs nothing, so it counts as gone (Linux `/proc/<pid>/stat`
 * state `Z`).
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/**
 * The pids of `pids` still running after waiting up to `waitMs` for them to go. Signals are delivered
 * asynchronously, so a check right after a kill may still see a process for a moment.
 */
export async function processesStillRunning(pids: readonly number[], waitMs: number): Promise<number[]> {
  const until = Date.now() + waitMs;
  let running = pids.filter(isProcessRunning);
  while (running.length > 0 && Date.now() < until) {
    await delay(25);
    running = running.filter(isProcessRunning);
  }
  return running;
}

/** SIGKILLs each pid and the process group it leads, ignoring the ones already gone. */
export function killProcesses(pids: readonly number[]): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone, or not a group leader: nothing to do.
      }
    }
  }
}
