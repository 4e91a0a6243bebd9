import type { Readable } from 'node:stream';
import { wrapInSandbox } from '../sandbox/wrap-in-sandbox.js';
import { createFinalLineWatch, timerDelay } from './final-line-watch.js';
import { DEFAULT_FINAL_EVENT_GRACE_MS, DEFAULT_KILL_GRACE_MS } from './grace-defaults.js';
import { createProcessTag, PROCESS_TAG_VARIABLE, sweepTaggedProcesses } from './kill-tagged-processes.js';
import { signalGroup, trackGroup, untrackGroup } from './process-group.js';
import type {
  SupervisedProcess,
  SupervisedProcessOptions,
  SupervisedProcessOutcome,
  SupervisedStopReason,
} from './supervised-process.js';

/** After the process exits, how long its pipes may stay open (held by an escaped grandchild) before snodo closes them. */
const pipeDrainMs = 2000;

/** How much of the start of stderr is kept to recognise bubblewrap's own error line. */
const firstStderrBytes = 1024;

function whenClosed(stream: Readable | null): Promise<void> {
  if (stream === null || stream.destroyed || stream.readableEnded) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

/**
 * Starts a process under supervision and returns at once: argv array (never a shell), stdin closed so a
 * CLI waiting for EOF never hangs, its own process group (`detached`) so every descendant can be
 * signalled, inside `options.sandbox` when given, and with a random `SNODO_PROCESS_TAG` in its
 * environment. Up to three limits stop it (wall clock, idle, abort), each SIGTERM to the group then SIGKILL
 * after the grace; `stop()` does the same on request. Whatever happens, once the leader exits its group
 * gets SIGKILL and every other process carrying its tag (a `setsid` grandchild) is killed too, so nothing
 * it started outlives it. Output goes to `onOutput` as it arrives and is never buffered here.
 *
 * Rejects only with `SANDBOX_INVALID` (a sandbox that cannot be set up); a process that cannot start
 * resolves with `pid: undefined` and an outcome carrying `spawnError`.
 */
export async function startSupervisedProcess(options: SupervisedProcessOptions): Promise<SupervisedProcess> {
  const tag = createProcessTag();
  const env = { ...options.env, [PROCESS_TAG_VARIABLE]: tag };
  const command =
    options.sandbox === undefined
      ? { file: options.file, args: [...options.args], env }
      : wrapInSandbox(options.sandbox, { file: options.file, args: options.args, cwd: options.cwd, env });
  // Loaded on first use: importing the SDK (and so @snodo/core) should not pay for execa.
  const { execa } = await import('execa');
  const subprocess = execa(command.file, command.args, {
    cwd: options.cwd,
    env: command.env,
    extendEnv: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    detached: true,
    buffer: false,
    reject: false,
    cleanup: false,
    windowsHide: true,
  });
  const completion = Promise.resolve(subprocess).then(
    (result) => result,
    (error: unknown) => error,
  );
  const pid = subprocess.pid;
  if (pid === undefined) {
    const exited = completion.then((result): SupervisedProcessOutcome => {
      const failure = result as { code?: string; message?: string };
      return {
        exitCode: undefined,
        signal: undefined,
        stoppedBy: undefined,
        spawnError: {
          code: failure.code,
          message: failure.message ?? 'the process could not start',
          file: command.file,
        },
        sandboxFailure: undefined,
        orphansKilled: 0,
      };
    });
    return { pid: undefined, tag, exited, stop: () => exited };
  }

  trackGroup(pid, tag);
  let stoppedBy: SupervisedStopReason | undefined;
  let leaderExited = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (reason: SupervisedStopReason) => {
    if (stoppedBy !== undefined || leaderExited) return;
    stoppedBy = reason;
    signalGroup(pid, 'SIGTERM');
    graceTimer = setTimeout(
      () => signalGroup(pid, 'SIGKILL'),
      timerDelay(options.killGraceMs ?? DEFAULT_KILL_GRACE_MS),
    );
  };
  const wallClockTimer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => stop('wall-clock'), timerDelay(options.timeoutMs));
  const idleTimer =
    options.idleTimeoutMs === undefined
      ? undefined
      : setTimeout(() => stop('idle'), timerDelay(options.idleTimeoutMs));
  const onAbort = () => stop('abort');
  options.abortSignal?.addEventListener('abort', onAbort, { once: true });

  const leaderExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    subprocess.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const watchFinalLine = createFinalLineWatch(
    options.isFinalLine,
    options.finalEventGraceMs ?? DEFAULT_FINAL_EVENT_GRACE_MS,
    () => stop('final-event'),
  );
  let firstStderr = '';
  const listen = (stream: Readable | null, name: 'stdout' | 'stderr') => {
    // A read error after exit (a destroyed pipe) is not the process's failure; the exit status says that.
    stream?.on('error', () => {});
    stream?.on('data', (chunk: Buffer) => {
      if (stoppedBy === undefined) idleTimer?.refresh();
      if (name === 'stderr' && options.sandbox !== undefined && firstStderr.length < firstStderrBytes) {
        firstStderr += chunk.toString('utf8', 0, Math.min(chunk.length, firstStderrBytes));
      }
      options.onOutput(name, chunk);
      if (name === 'stdout') watchFinalLine.push(chunk);
    });
  };
  listen(subprocess.stdout, 'stdout');
  listen(subprocess.stderr, 'stderr');
  options.onStart?.(pid, tag);
  if (options.abortSignal?.aborted) onAbort();

  const exited = (async (): Promise<SupervisedProcessOutcome> => {
    const exit = await leaderExit;
    leaderExited = true;
    watchFinalLine.dispose();
    clearTimeout(wallClockTimer);
    clearTimeout(idleTimer);
    clearTimeout(graceTimer);
    options.abortSignal?.removeEventListener('abort', onAbort);
    signalGroup(pid, 'SIGKILL');
    untrackGroup(pid);
    // NOTE: a descendant that called setsid left the group and survives the group kill; it kept the tag.
    const orphansKilled = sweepTaggedProcesses(tag, pid).escaped;

    // NOTE: an escaped descendant the sweep missed can hold the pipes open forever; stop waiting for it.
    let drainTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([whenClosed(subprocess.stdout), whenClosed(subprocess.stderr)]),
      new Promise<void>((resolve) => {
        drainTimer = setTimeout(resolve, pipeDrainMs);
      }),
    ]);
    clearTimeout(drainTimer);
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
    void completion;
    const firstLine = firstStderr.split('\n')[0] ?? '';
    return {
      exitCode: exit.code ?? undefined,
      signal: exit.signal ?? undefined,
      stoppedBy,
      spawnError: undefined,
      sandboxFailure:
        options.sandbox !== undefined && exit.code === 1 && firstLine.startsWith('bwrap: ')
          ? firstLine
          : undefined,
      orphansKilled,
    };
  })();
  return {
    pid,
    tag,
    exited,
    stop: (reason = 'requested') => {
      stop(reason);
      return exited;
    },
  };
}
