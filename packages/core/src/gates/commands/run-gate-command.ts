import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { GateCommandRequest, GateCommandResult } from './gate-command-runner.js';

/** Tuning of the default runner; the defaults suit test suites. */
export interface RunGateCommandOptions {
  /** Bytes of output kept (the tail). Default 64 KiB. */
  readonly outputCapBytes?: number;
  /** Time between SIGTERM and SIGKILL to the group after a timeout or abort. Default 2 s. */
  readonly killGraceMs?: number;
}

/** Keeps the last `cap` bytes of a stream without ever holding more than about twice that. */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.cap * 2) this.compact();
  }
  private compact(): void {
    const joined = Buffer.concat(this.chunks);
    if (joined.length > this.cap) this.truncated = true;
    const kept = joined.subarray(Math.max(0, joined.length - this.cap));
    this.chunks = [kept];
    this.size = kept.length;
  }
  text(): string {
    this.compact();
    return (this.chunks[0] ?? Buffer.alloc(0)).toString('utf8');
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // NOTE: a negative pid signals the whole process group. Safe only because the child was spawned
    // `detached` (its own group); on a non-detached child it would signal snodo's own group.
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

/**
 * The default command runner: spawns the command in the worktree as the leader of its own process group
 * (`detached`), stdin closed, stdout and stderr drained into one capped tail. On timeout or abort it sends
 * SIGTERM to the group and SIGKILL after a grace period; when the leader exits, whatever it left behind
 * in its group (a forgotten dev server, a watcher) is killed too, so no gate leaves processes running.
 */
export function runGateCommand(
  request: GateCommandRequest,
  options: RunGateCommandOptions = {},
): Promise<GateCommandResult> {
  const cap = options.outputCapBytes ?? 64 * 1024;
  const grace = options.killGraceMs ?? 2000;
  const [file, ...args] =
    'shell' in request.command ? ['sh', '-c', request.command.shell] : [...request.command.argv];
  if (file === undefined) {
    return Promise.resolve(failed('the command is empty'));
  }
  if (!existsSync(request.cwd)) {
    return Promise.resolve(failed(`the working directory ${request.cwd} does not exist`));
  }
  if (request.signal?.aborted) {
    return Promise.resolve({
      outcome: 'aborted',
      exitCode: null,
      signal: null,
      output: '',
      outputTruncated: false,
    });
  }
  return new Promise((resolve) => {
    const tail = new OutputTail(cap);
    let ending: 'timed-out' | 'aborted' | undefined;
    let exit: { code: number | null; signal: string | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    const child = spawn(file, args, {
      cwd: request.cwd,
      env: request.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = (why: 'timed-out' | 'aborted') => {
      if (ending !== undefined || exit !== undefined) return;
      ending = why;
      killGroup(child.pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(child.pid, 'SIGKILL'), grace));
    };
    const onAbort = () => stop('aborted');
    let settled = false;
    const finish = (result: GateCommandResult) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    timers.push(setTimeout(() => stop('timed-out'), request.timeoutMs));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => tail.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // an error after start (e.g. kill failed) changes nothing
      const reason =
        error.code === 'ENOENT' ? `command not found: ${file}` : `could not start ${file}: ${error.message}`;
      finish(failed(reason));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Sweep the rest of the group so descendants cannot hold the pipes open (and never outlive the gate).
      killGroup(child.pid, 'SIGKILL');
      // NOTE: a descendant that called setsid left the group and may still hold the pipes; do not wait forever.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
        }, 2000),
      );
    });
    child.on('close', () => {
      finish({
        outcome: ending ?? 'exited',
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        output: tail.text(),
        outputTruncated: tail.truncated,
      });
    });
  });
}

function failed(spawnError: string): GateCommandResult {
  return {
    outcome: 'spawn-failed',
    exitCode: null,
    signal: null,
    output: '',
    outputTruncated: false,
    spawnError,
  };
}
