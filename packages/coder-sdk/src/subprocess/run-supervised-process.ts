import type { Readable } from 'node:stream';

/** How to run and watch one coder process. */
export interface SupervisedProcessOptions {
  /** The executable (absolute path). */
  readonly file: string;
  /** Its arguments, without the program name. */
  readonly args: readonly string[];
  /** The working directory (the worktree). */
  readonly cwd: string;
  /** The complete environment; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds. */
  readonly timeoutMs: number;
  /** Limit on silence (no byte on stdout or stderr) in milliseconds. */
  readonly idleTimeoutMs: number;
  /** Time between SIGTERM and SIGKILL to the process group. */
  readonly killGraceMs: number;
  /** Cancels the run: the group is stopped the same way as on a timeout. */
  readonly abortSignal: AbortSignal;
  /** Receives every chunk of output as it arrives. */
  readonly onOutput: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /** Told the pid of the started process, which leads its own process group. */
  readonly onStart?: (pid: number) => void;
  /**
   * Recognises the CLI's last event on stdout (a JSON `result` line). Once it is printed the CLI has
   * finished its work; if it has not exited `finalEventGraceMs` later, its group is stopped and the run
   * counts as ended normally (`stoppedBy: 'final-event'`).
   */
  readonly isFinalLine?: (line: string) => boolean;
  /** How long a CLI may keep running after its final event. */
  readonly finalEventGraceMs?: number;
}

/** How a supervised process ended. */
export interface SupervisedProcessOutcome {
  /** The exit code, when it exited on its own or after a handled signal. */
  readonly exitCode: number | undefined;
  /** The signal that ended it, when one did. */
  readonly signal: string | undefined;
  /**
   * Which limit made snodo stop it, if any. `final-event`: the CLI printed its final event and did not
   * exit; its work was done, so this is not a failure.
   */
  readonly stoppedBy: 'wall-clock' | 'idle' | 'abort' | 'final-event' | undefined;
  /** Set when the process could not start at all (`ENOENT`, `EACCES`). */
  readonly spawnError: { readonly code: string | undefined; readonly message: string } | undefined;
}

/** After the process exits, how long its pipes may stay open (held by an escaped grandchild) before snodo closes them. */
const pipeDrainMs = 2000;

/** The longest delay a Node timer takes; a longer one (or `Infinity`) would fire at once instead. */
const longestTimerMs = 2_147_483_647;

function timerDelay(milliseconds: number): number {
  return Number.isFinite(milliseconds)
    ? Math.min(Math.max(Math.trunc(milliseconds), 1), longestTimerMs)
    : longestTimerMs;
}

/** Sends `signal` to the whole process group led by `pid`; a group that is already gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}

/** Process groups of coders still running in this process, killed if snodo exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Detached groups do not die with their parent: without this, an embedder that exits (or a test runner
 * that ends a worker) mid-run leaves the coder and its children running. Only a synchronous `exit`
 * listener runs in time; a parent killed with SIGKILL still needs core's recovery on the next start.
 */
function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

function whenClosed(stream: Readable | null): Promise<void> {
  if (stream === null || stream.destroyed || stream.readableEnded) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

/** A line longer than this is not an event a CLI prints; it is skipped without being held in memory. */
const longestEventLine = 8 * 1024 * 1024;

/**
 * Watches stdout line by line for the CLI's final event and, once seen, calls `onExpired` if the CLI is
 * still running after the grace. NOTE: Claude Code, OpenCode and others sometimes keep running after their
 * final event (anthropics/claude-code#25629, anomalyco/opencode#17516); without this a finished run would
 * wait for the idle limit.
 */
function createFinalLineWatch(
  options: Pick<SupervisedProcessOptions, 'isFinalLine' | 'finalEventGraceMs'>,
  onExpired: () => void,
): { push(chunk: Buffer): void; dispose(): void } {
  const isFinalLine = options.isFinalLine;
  if (isFinalLine === undefined) return { push() {}, dispose() {} };
  let partial = '';
  let skipping = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    push(chunk) {
      if (timer !== undefined) return;
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (skipping) {
          skipping = false;
          continue;
        }
        if (isFinalLine(line)) {
          timer = setTimeout(onExpired, timerDelay(options.finalEventGraceMs ?? 3000));
          return;
        }
      }
      if (partial.length > longestEventLine) {
        partial = '';
        skipping = true;
      }
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/**
 * Runs a coder process under supervision: argv array (never a shell), stdin closed so a CLI waiting for
 * EOF never hangs, its own process group (`detached`) so every descendant can be signalled, and three
 * ways to stop it (wall clock, idle, abort), each SIGTERM to the group then SIGKILL after the grace.
 * Whatever happens, once the process exits its group gets SIGKILL, so no grandchild survives the run.
 * Output is passed to `onOutput` as it arrives and never buffered here.
 */
export async function runSupervisedProcess(
  options: SupervisedProcessOptions,
): Promise<SupervisedProcessOutcome> {
  // Loaded on first use: importing the SDK (and so @snodo/core) should not pay for execa.
  const { execa } = await import('execa');
  const subprocess = execa(options.file, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env },
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
    const result = (await completion) as { code?: string; message?: string };
    return {
      exitCode: undefined,
      signal: undefined,
      stoppedBy: undefined,
      spawnError: { code: result.code, message: result.message ?? 'the process could not start' },
    };
  }

  trackGroup(pid);
  options.onStart?.(pid);
  let stoppedBy: SupervisedProcessOutcome['stoppedBy'];
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (reason: NonNullable<SupervisedProcessOutcome['stoppedBy']>) => {
    if (stoppedBy !== undefined) return;
    stoppedBy = reason;
    signalGroup(pid, 'SIGTERM');
    graceTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), timerDelay(options.killGraceMs));
  };
  const wallClockTimer = setTimeout(() => stop('wall-clock'), timerDelay(options.timeoutMs));
  const idleTimer = setTimeout(() => stop('idle'), timerDelay(options.idleTimeoutMs));
  const onAbort = () => stop('abort');
  options.abortSignal.addEventListener('abort', onAbort, { once: true });
  if (options.abortSignal.aborted) onAbort();

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    subprocess.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const watchFinalLine = createFinalLineWatch(options, () => stop('final-event'));
  const listen = (stream: Readable | null, name: 'stdout' | 'stderr') => {
    // A read error after exit (a destroyed pipe) is not the coder's failure; the exit status says that.
    stream?.on('error', () => {});
    stream?.on('data', (chunk: Buffer) => {
      if (stoppedBy === undefined) idleTimer.refresh();
      options.onOutput(name, chunk);
      if (name === 'stdout') watchFinalLine.push(chunk);
    });
  };
  listen(subprocess.stdout, 'stdout');
  listen(subprocess.stderr, 'stderr');

  const exit = await exited;
  watchFinalLine.dispose();
  clearTimeout(wallClockTimer);
  clearTimeout(idleTimer);
  if (graceTimer !== undefined) clearTimeout(graceTimer);
  options.abortSignal.removeEventListener('abort', onAbort);
  signalGroup(pid, 'SIGKILL');
  liveGroups.delete(pid);

  // NOTE: a descendant that left the group (setsid) can hold the pipes open forever; stop waiting for it.
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

  return {
    exitCode: exit.code ?? undefined,
    signal: exit.signal ?? undefined,
    stoppedBy,
    spawnError: undefined,
  };
}
