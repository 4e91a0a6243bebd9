import { killTaggedProcesses } from './kill-tagged-processes.js';

/** Sends `signal` to the whole process group led by `pid`; a group that is already gone is fine. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // NOTE: a negative pid signals the whole group. Safe only because every supervised process is spawned
    // `detached` (leader of its own group); on any other child it would signal snodo's own group.
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}

/** Supervised groups still running in this process (leader pid → tag), killed if snodo exits first. */
const liveGroups = new Map<number, string>();
let exitHookInstalled = false;

/**
 * Remembers a running group. Detached groups do not die with their parent: without this, an embedder that
 * exits (or a test runner that ends a worker) mid-run leaves the coder and its children running. Only a
 * synchronous `exit` listener runs in time; a parent killed with SIGKILL still needs core's recovery on the
 * next start (the recorded group and tag).
 */
export function trackGroup(pid: number, tag: string): void {
  liveGroups.set(pid, tag);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [group, groupTag] of liveGroups) {
      signalGroup(group, 'SIGKILL');
      try {
        killTaggedProcesses(groupTag);
      } catch {
        // Exiting anyway; nothing more can be done here.
      }
    }
  });
}

/** Forgets a group that was stopped. */
export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}
