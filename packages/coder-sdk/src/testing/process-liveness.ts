/** Test support (not exported, not built): waiting for a process to be gone. */
import { setTimeout as delay } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';

/** `false` when `pid` is gone: the foundation's liveness check (a zombie counts as gone). */
export const isProcessRunning: (pid: number) => boolean = isProcessAlive;

/**
 * Waits until `pid` is gone or `deadlineMs` passed; returns whether it is gone. Signals are delivered
 * asynchronously, so a check right after a kill may still see the process for a moment.
 */
export async function waitUntilGone(pid: number, deadlineMs = 3000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > until) return false;
    await delay(25);
  }
  return true;
}
