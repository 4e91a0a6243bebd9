import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { CoderAbortedError, CoderFailedError, CoderTimeoutError } from '@snodo/coder-sdk';
import type { OpencodeRuntime } from './opencode-runtime.js';
import type { OpencodeTranscript } from './opencode-transcript.js';
import { signalGroup, trackGroup, untrackGroup } from './process-group.js';

/** What the host runtime needs. */
export interface HostRuntimeOptions {
  /** The coder, for error messages. */
  readonly who: { readonly coderId: string; readonly displayName: string };
  /** The `opencode` executable. */
  readonly binaryPath: string;
  /** The server's working directory (the worktree). */
  readonly workspace: string;
  /** The complete environment: the coder's own plus the server variables. Nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** The password in `env`, for the runtime's auth. */
  readonly password: string;
  /** A directory this runtime owns (the private XDG directories); removed on stop. */
  readonly stateDirectory: string;
  /** How long `opencode serve` may take to print its address. */
  readonly startupTimeoutMs: number;
  /** SIGTERM → SIGKILL grace when the server is stopped. */
  readonly killGraceMs: number;
  /** The attempt's wall-clock limit, for the timeout error, and when it ends. */
  readonly timeoutMs: number;
  readonly deadline: number;
  /** Cancels the start. */
  readonly abortSignal: AbortSignal;
  /** Receives the server's output. */
  readonly transcript: OpencodeTranscript;
}

/** The arguments after the binary: a free loopback port, printed on stdout once listening. */
export const HOST_SERVE_ARGUMENTS = ['serve', '--hostname', '127.0.0.1', '--port', '0'] as const;

/** The address `opencode serve` prints (`opencode server listening on http://127.0.0.1:4096`). */
const listeningAddress = /(https?:\/\/[\w.-]+(?::\d+)?|https?:\/\/\[[\da-fA-F:]+\](?::\d+)?)/;

/** How long the output pipes may stay open after the server exited before they are closed. */
const pipeDrainMs = 1000;

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal === null ? `exited with code ${code ?? 'unknown'}` : `was killed by ${signal}`;
}

function whenClosed(child: ChildProcess): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream) => stream !== null && !stream.destroyed);
  return Promise.all(
    streams.map((stream) => new Promise<void>((resolve) => stream?.once('close', () => resolve()))),
  ).then(() => undefined);
}

/**
 * Starts `opencode serve --hostname 127.0.0.1 --port 0` for one attempt: its own process group, stdin
 * closed, exactly the environment given, output into the transcript. Resolves once the server printed its
 * address; rejects with `CODER_FAILED` when it exits or stays silent past the startup limit (its stderr
 * tail in the error), `CODER_TIMEOUT` when the attempt's own limit comes first, `CODER_ABORTED` on
 * cancel. On any failure the group is killed and the state directory removed before the error is thrown.
 */
export async function startHostRuntime(options: HostRuntimeOptions): Promise<OpencodeRuntime> {
  const argv = [options.binaryPath, ...HOST_SERVE_ARGUMENTS];
  const child = spawn(options.binaryPath, [...HOST_SERVE_ARGUMENTS], {
    cwd: options.workspace,
    env: { ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', (error) => resolve(error)));
  if (child.pid !== undefined) trackGroup(child.pid);

  let address: string | undefined;
  let searched = '';
  let announce: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => {
    announce = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    options.transcript.serverOutput('stdout', chunk);
    if (address !== undefined) return;
    searched = (searched + chunk.toString('utf8')).slice(-64 * 1024);
    const match = listeningAddress.exec(searched);
    if (match?.[1] !== undefined) {
      address = match[1].replace(/\/+$/, '');
      announce(address);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => options.transcript.serverOutput('stderr', chunk));
  child.stdout?.on('error', () => {});
  child.stderr?.on('error', () => {});

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const pid = child.pid;
    if (pid !== undefined) {
      if (exit === undefined) {
        signalGroup(pid, 'SIGTERM');
        await Promise.race([exited, delay(options.killGraceMs)]);
      }
      // Whatever happened, nothing of the server's group outlives the attempt.
      signalGroup(pid, 'SIGKILL');
      await Promise.race([exited, delay(2000)]);
      untrackGroup(pid);
    }
    await Promise.race([whenClosed(child), delay(pipeDrainMs)]);
    child.stdout?.destroy();
    child.stderr?.destroy();
    rmSync(options.stateDirectory, { recursive: true, force: true });
  };

  const who = options.who;
  const startupLimit = Math.min(options.startupTimeoutMs, Math.max(options.deadline - Date.now(), 1));
  const attemptLimitFirst = options.deadline - Date.now() <= options.startupTimeoutMs;
  let onAbort: () => void = () => {};
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
  });
  options.abortSignal.addEventListener('abort', onAbort, { once: true });
  if (options.abortSignal.aborted) onAbort();
  const timer = new AbortController();
  const outcome = await Promise.race([
    announced.then((url) => ({ url }) as const),
    exited.then(() => 'exited' as const),
    spawnFailed.then((error) => ({ spawnError: error }) as const),
    aborted,
    delay(startupLimit, 'startup-timeout' as const, { signal: timer.signal }).catch(
      () => 'cancelled' as const,
    ),
  ]);
  timer.abort();
  options.abortSignal.removeEventListener('abort', onAbort);
  if (typeof outcome === 'object' && 'url' in outcome) {
    return {
      kind: 'host',
      url: outcome.url,
      username: 'opencode',
      password: options.password,
      argv,
      description: `the OpenCode server snodo started (pid ${child.pid})`,
      exitDescription: () => (exit === undefined ? undefined : describeExit(exit.code, exit.signal)),
      stderrTail: () => options.transcript.stderrTail(),
      stop,
    };
  }
  await stop();
  if (outcome === 'aborted') throw new CoderAbortedError({ ...who, cause: options.abortSignal.reason });
  if (outcome === 'startup-timeout' && attemptLimitFirst) {
    throw new CoderTimeoutError({ ...who, limit: 'wall-clock', timeoutMs: options.timeoutMs });
  }
  const stderrTail = options.transcript.stderrTail();
  if (typeof outcome === 'object') {
    throw new CoderFailedError({
      ...who,
      stderrTail,
      reason: `could not start \`${argv.join(' ')}\`: ${outcome.spawnError.message}`,
      cause: outcome.spawnError,
    });
  }
  const what =
    outcome === 'exited' && exit !== undefined
      ? `${describeExit(exit.code, exit.signal)} before it printed the address it listens on`
      : `printed no address within ${Math.round(startupLimit / 1000)}s`;
  throw new CoderFailedError({
    ...who,
    stderrTail,
    reason: `could not start its server: \`${argv.slice(1).join(' ')}\` ${what}`,
    ...(exit?.code === null || exit === undefined ? {} : { exitCode: exit.code }),
  });
}
