import { spawn, spawnSync } from 'node:child_process';
import {
  createProcessTag,
  killTaggedProcesses,
  PROCESS_TAG_VARIABLE,
} from '../process/kill-tagged-processes.js';
import { gitSpawnHost, type HostedGitCommand, type HostedGitExit } from './git-spawn-host.js';

/** One quick program snodo runs for itself (git, or `rm` for a workspace): what `spawn` would get. */
export interface ShortCommand extends HostedGitCommand {
  /** Kill the program, and every process it started, after this many milliseconds. */
  readonly timeoutMs: number;
}

/** How it ended: as `spawn`'s `close` (or `error`) said, and whether the time limit ended it. */
export interface ShortCommandExit extends HostedGitExit {
  /** The program ran past `timeoutMs` and was killed with what it started; `code` is then `null`. */
  readonly timedOut: boolean;
}

/**
 * The environment plus a tag of its own (`SNODO_PROCESS_TAG`): the program and what it starts (git's ssh,
 * a credential helper) inherit it, so one that outlives its limit is killed with all of them, though they
 * share snodo's process group (they stay in it so that Ctrl-C still reaches them).
 */
function tagged(command: ShortCommand): { tag: string; env: Record<string, string | undefined> } {
  const tag = createProcessTag();
  return { tag, env: { ...command.env, [PROCESS_TAG_VARIABLE]: tag } };
}

/**
 * Runs one short program and gathers what it prints: argv array, stdin closed unless `input` is given, a
 * time limit. Once it is up, the spawn host starts it, off this event loop (`git-spawn-host.ts`); until
 * then, and without one, it is spawned from here. For the helper commands snodo runs itself; coders,
 * gates and anything long go through the supervisor (`startSupervisedProcess`).
 */
export async function runShortCommand(command: ShortCommand): Promise<ShortCommandExit> {
  const { tag, env } = tagged(command);
  const host = gitSpawnHost();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTaggedProcesses(tag);
  }, command.timeoutMs);
  // The program itself keeps snodo alive while it runs; the timer must not keep it alive after.
  timer.unref();
  try {
    const exit = host ? await host.run({ ...command, env }) : await spawnHere({ ...command, env });
    return timedOut ? { ...exit, code: null, timedOut } : { ...exit, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `runShortCommand`, blocking, always spawned from here. Only for interfaces that must stay synchronous
 * (a `DiffContext`'s `readFile`, which predicates call lazily).
 */
export function runShortCommandSync(command: ShortCommand): ShortCommandExit {
  const { tag, env } = tagged(command);
  const result = spawnSync(command.file, command.args, {
    cwd: command.cwd,
    env,
    input: command.input,
    stdio: [command.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: Number.POSITIVE_INFINITY,
    timeout: command.timeoutMs,
    killSignal: 'SIGKILL',
  });
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  // spawnSync killed the program itself; what it started may still run.
  if (timedOut) killTaggedProcesses(tag);
  return {
    code: result.error === undefined ? result.status : null,
    error: result.error,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    timedOut,
  };
}

/** Spawns the program from this process and gathers what it prints. */
async function spawnHere(command: HostedGitCommand): Promise<HostedGitExit> {
  const { input } = command;
  const child = spawn(command.file, command.args, {
    cwd: command.cwd,
    env: command.env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdoutChunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk));
  if (input !== undefined) {
    // The program may exit before reading all of stdin (e.g. on an error); that must not crash snodo.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  }
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  return {
    ...exit,
    stdout: Buffer.concat(stdoutChunks).toString('utf8'),
    stderr: Buffer.concat(stderrChunks).toString('utf8'),
  };
}
