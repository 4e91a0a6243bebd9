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
 * When a process started, in epoch milliseconds (Linux only; `undefined` elsewhere or when it is gone).
 * With the pid it identifies a process even after the pid is reused, so a crashed job is never mistaken
 * for a live one because an unrelated process got its pid.
 */
export function processStartTimeMs(pid: number): number | undefined {
  const boot = readBootTimeMs();
  if (boot === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    // NOTE: USER_HZ is 100 on every mainstream Linux build; /proc reports start time in those ticks.
    return Number.isFinite(ticks) ? boot + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** `true` when a process with `pid` exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `true` when `pid` is running and, where start times are known, is still the same process. */
export function isSameProcessAlive(pid: number, startTimeMs: number | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTimeMs === undefined) return true;
  const current = processStartTimeMs(pid);
  return current === undefined || Math.abs(current - startTimeMs) < 2_000;
}
