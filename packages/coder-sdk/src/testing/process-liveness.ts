/** Test support (not exported, not built): is a process still running? */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * `false` when `pid` is gone. `process.kill(pid, 0)` answers ESRCH for a reaped process; a killed process
 * whose parent died first can stay a zombie when PID 1 of a container does not reap orphans, and a zombie
 * runs nothing, so it counts as gone (Linux `/proc/<pid>/stat` state `Z`).
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
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
 * Waits until `pid` is gone or `deadlineMs` passed; returns whether it is gone. Signals are delivered
 * asynchronously, so a check right after a kill may still see the process for a moment.
 */
export async function waitUntilGone(pid: number, deadlineMs = 3000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (isProcessRunning(pid)) {
    if (Date.now() > until) return false;
    await delay(25);
  }
  return true;
}
