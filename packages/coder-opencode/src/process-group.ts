/** Sends `signal` to the process group led by `pid`; a group that is already gone is fine. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}

/** Process groups of servers still running, killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a server's process group so that an embedder (or a test runner) exiting mid-run does not
 * leave the server and its tools running: a detached group does not die with its parent. Only a
 * synchronous `exit` listener runs in time; a SIGKILLed snodo still leaves the group behind.
 */
export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

/** Forgets a group that was stopped. */
export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}
