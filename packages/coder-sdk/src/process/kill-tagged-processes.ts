import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The environment variable that marks every process the supervisor starts, and so every descendant that
 * keeps its environment. The value is a random 128-bit tag per supervised process.
 */
export const PROCESS_TAG_VARIABLE = 'SNODO_PROCESS_TAG';

const tagPattern = /^[0-9a-f]{32}$/;

/** A fresh tag: 32 lowercase hex digits. */
export function createProcessTag(): string {
  return randomBytes(16).toString('hex');
}

/** This process's PID namespace (`pid:[4026531836]`), or `undefined` where it cannot be read. */
function pidNamespace(pid: number | 'self'): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** The process group of `pid` (`/proc/<pid>/stat`, after the command name), or `undefined`. */
function processGroupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    return Number.isSafeInteger(group) ? group : undefined;
  } catch {
    return undefined;
  }
}

/** The process ids carrying `SNODO_PROCESS_TAG=<tag>`, except this process. Empty without `/proc`. */
function findTaggedProcesses(tag: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${PROCESS_TAG_VARIABLE}=${tag}\0`);
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      // Gone already, or another user's process (EACCES): not ours to judge.
      continue;
    }
    if (Buffer.concat([Buffer.from('\0'), environ]).includes(needle)) found.push(pid);
  }
  return found;
}

/**
 * Kills (SIGKILL) every process whose environment carries `SNODO_PROCESS_TAG=<tag>` and returns how many
 * it signalled. The supervisor calls it after a process's group is gone: a grandchild that called `setsid`
 * left the group, but not its environment. Core calls it on the next start for a tag recorded by a snodo
 * that was killed mid-run.
 *
 * Linux only (it reads `/proc/<pid>/environ`); elsewhere it finds nothing and returns 0. It is hygiene,
 * not a boundary: a process that re-executes itself with a scrubbed environment escapes it. Inside a
 * sandbox the PID namespace is the boundary and already took every descendant with it.
 */
export function killTaggedProcesses(tag: string): number {
  return sweepTaggedProcesses(tag).killed;
}

/**
 * `killTaggedProcesses`, also counting the processes that escaped: those outside the group `group` (just
 * killed as a whole, its members may still be exiting) and in this process's own PID namespace. Processes
 * in another PID namespace were inside a sandbox the kernel is tearing down anyway (its init exits just
 * after the command). Killing those is harmless, but they escaped nothing, so the supervisor reports only
 * the escaped ones as orphans.
 */
export function sweepTaggedProcesses(tag: string, group?: number): { killed: number; escaped: number } {
  if (!tagPattern.test(tag)) {
    throw new TypeError(
      `killTaggedProcesses: "${tag}" is not a process tag (32 lowercase hex digits, as startSupervisedProcess makes).`,
    );
  }
  const ownNamespace = pidNamespace('self');
  const signalled = new Set<number>();
  let escaped = 0;
  // A tagged process may fork while the scan runs; another pass catches what the first one missed.
  // NOTE: a process that got SIGKILL stays visible in /proc until it has finished exiting, so a later
  // pass sees it again; it is counted (and signalled) once.
  for (let pass = 0; pass < 3; pass += 1) {
    let fresh = 0;
    for (const pid of findTaggedProcesses(tag)) {
      if (signalled.has(pid)) continue;
      const namespace = pidNamespace(pid);
      const inGroup = group !== undefined && processGroupOf(pid) === group;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        continue; // Gone between the scan and the signal.
      }
      signalled.add(pid);
      fresh += 1;
      if (!inGroup && (namespace === undefined || namespace === ownNamespace)) escaped += 1;
    }
    if (fresh === 0) break;
  }
  return { killed: signalled.size, escaped };
}
