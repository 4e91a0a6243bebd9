import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';

/** Waits (up to about 5 s) for `pid` to be gone (the foundation's check: a zombie counts as gone). */
export async function waitUntilGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (!isProcessAlive(pid)) return true;
    await sleep(50);
  }
  return !isProcessAlive(pid);
}
