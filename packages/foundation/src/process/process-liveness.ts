import { readFileSync } from 'node:fs';

let bootTimeMs: number | undefined;

function readBootTimeMs(): number | undefined {
  if (bootTimeMs !== undefined) return bootTimeMs;
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('btime '));
    if (line) bootTimeMs = Number(line.slice(6)) * 1000;
  } catch {
    // Not Linux: process start times are unavailable and callers fall back to pid liveness alone.
  }
  return bootTimeMs;
}

/**
 * The fields of `/proc/<pid>/stat` after the command name (which may contain spaces and parentheses, so
 * the fields resume after the last `)`), or `undefined` where there is no such file (not Linux, or gone).
 */
function readStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When a process started, in epoch milliseconds (Linux only; `undefined` elsewhere or when it is gone).
 * With the pid it identifies a process even after the pid is reused, so a crashed job (or a lock's holder)
 * is never mistaken for a live one because an unrelated process got its pid.
 */
export function processStartTimeMs(pid: number): number | undefined {
  const boot = readBootTimeMs();
  if (boot === undefined) return undefined;
  const ticks = Number(readStatFields(pid)?.[19]);
  // NOTE: USER_HZ is 100 on every mainstream Linux build; /proc reports start time in those ticks.
  return Number.isFinite(ticks) ? boot + ticks * 10 : undefined;
}

/**
 * `true` when a process with `pid` exists and runs. EPERM means it exists but belongs to someone else, so
 * it counts as alive. A zombie (dead, not yet reaped: a killed process whose parent died first stays one
 * when PID 1 of a container does not reap orphans) runs nothing, so it counts as gone.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = readStatFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

/** `true` when `pid` is running and, where start times are known, is still the process that started then. */
export function isSameProcessAlive(pid: number, startTimeMs: number | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTimeMs === undefined) return true;
  const current = processStartTimeMs(pid);
  return current === undefined || Math.abs(current - startTimeMs) < 2_000;
}
