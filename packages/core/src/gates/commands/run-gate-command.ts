import { existsSync } from 'node:fs';
import { runSupervisedProcess, type SupervisedProcessOutcome } from '@snodo/coder-sdk';
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

/** The environment without unset entries: the supervisor takes exactly what it is given. */
function definedEnvironment(env: GateCommandRequest['env']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Why a command never ran, in the words a gate verdict shows; `undefined` when it did run. */
function startFailure(
  file: string,
  request: GateCommandRequest,
  outcome: SupervisedProcessOutcome,
): string | undefined {
  const { spawnError, sandboxFailure } = outcome;
  if (spawnError !== undefined) {
    if (request.sandbox !== undefined && spawnError.file === request.sandbox.executable) {
      return `the sandbox did not start (bubblewrap at ${spawnError.file}: ${spawnError.code ?? spawnError.message}); check \`snodo doctor\``;
    }
    return spawnError.code === 'ENOENT'
      ? `command not found: ${file}`
      : `could not start ${file}: ${spawnError.message}`;
  }
  if (sandboxFailure === undefined) return undefined;
  // NOTE: bubblewrap reports a command it cannot find inside the sandbox as its own failure (exit 1).
  return /^bwrap: execvp .*: No such file or directory$/.test(sandboxFailure)
    ? `command not found: ${file} (inside the sandbox)`
    : `the sandbox could not start it: ${sandboxFailure}`;
}

/**
 * The default command runner, on the SDK's one process supervisor: the command runs in the worktree as the
 * leader of its own process group, inside `request.sandbox` when core gives one (a gate runs code the coder
 * wrote), stdin closed, stdout and stderr drained into one capped tail. On timeout or abort the group gets
 * SIGTERM and SIGKILL after a grace period; when the leader exits, whatever it left behind (a forgotten dev
 * server, a watcher, a `setsid` daemon carrying its tag) is killed too, so no gate leaves processes running.
 */
export async function runGateCommand(
  request: GateCommandRequest,
  options: RunGateCommandOptions = {},
): Promise<GateCommandResult> {
  const [file, ...args] =
    'shell' in request.command ? ['sh', '-c', request.command.shell] : [...request.command.argv];
  if (file === undefined) return failed('the command is empty');
  if (!existsSync(request.cwd)) return failed(`the working directory ${request.cwd} does not exist`);
  if (request.signal?.aborted) {
    return { outcome: 'aborted', exitCode: null, signal: null, output: '', outputTruncated: false };
  }
  const tail = new OutputTail(options.outputCapBytes ?? 64 * 1024);
  let outcome: SupervisedProcessOutcome;
  try {
    outcome = await runSupervisedProcess({
      file,
      args,
      cwd: request.cwd,
      env: definedEnvironment(request.env),
      ...(request.sandbox === undefined ? {} : { sandbox: request.sandbox }),
      timeoutMs: request.timeoutMs,
      killGraceMs: options.killGraceMs ?? 2000,
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
      onOutput: (_stream, chunk) => tail.push(chunk),
    });
  } catch (error) {
    // A sandbox that cannot be set up (SANDBOX_INVALID): the gate cannot run, and says why.
    return failed(error instanceof Error ? error.message : String(error));
  }
  const notStarted = startFailure(file, request, outcome);
  if (notStarted !== undefined) return failed(notStarted);
  return {
    outcome:
      outcome.stoppedBy === 'wall-clock' ? 'timed-out' : outcome.stoppedBy === 'abort' ? 'aborted' : 'exited',
    exitCode: outcome.exitCode ?? null,
    signal: outcome.signal ?? null,
    output: tail.text(),
    outputTruncated: tail.truncated,
  };
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
