import { mkdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CoderAbortedError,
  CoderFailedError,
  CoderTimeoutError,
  type CoderV1Sandbox,
  type SupervisedProcessOutcome,
  startSupervisedProcess,
} from '@snodo/coder-sdk';
import type { OpencodeRuntime } from './opencode-runtime.js';
import type { OpencodeTranscript } from './opencode-transcript.js';

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
  /**
   * The server's private XDG directories live here (in the job's coder state directory, so they are
   * writable inside the sandbox and kept with the job); created before the start.
   */
  readonly stateDirectory: string;
  /**
   * The attempt's sandbox (`request.sandbox`). The server and every tool its agent runs live inside it;
   * its network is always shared, so snodo on the host reaches the server on 127.0.0.1.
   */
  readonly sandbox?: CoderV1Sandbox;
  /** Told the server's pid and process tag once it started (core records them for crash recovery). */
  readonly onStart?: (pid: number, tag: string) => void;
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

function describeExit(outcome: SupervisedProcessOutcome): string {
  if (outcome.sandboxFailure !== undefined)
    return `could not start inside the sandbox (${outcome.sandboxFailure})`;
  return outcome.signal === undefined
    ? `exited with code ${outcome.exitCode ?? 'unknown'}`
    : `was killed by ${outcome.signal}`;
}

/**
 * Starts `opencode serve --hostname 127.0.0.1 --port 0` for one attempt through the SDK's supervisor (its
 * own process group, stdin closed, exactly the environment given, inside the attempt's sandbox, output into
 * the transcript). Resolves once the server printed its address; rejects with `CODER_FAILED` when it
 * exits or stays silent past the startup limit (its stderr tail in the error), `CODER_TIMEOUT` when the
 * attempt's own limit comes first, `CODER_ABORTED` on cancel. On any failure the server's group is killed
 * before the error is thrown. The runtime's `stop` stops it the same way: SIGTERM, SIGKILL after the grace,
 * and every process carrying its tag.
 */
export async function startHostRuntime(options: HostRuntimeOptions): Promise<OpencodeRuntime> {
  const argv = [options.binaryPath, ...HOST_SERVE_ARGUMENTS];
  mkdirSync(options.stateDirectory, { recursive: true, mode: 0o700 });
  let address: string | undefined;
  let searched = '';
  let announce: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const server = await startSupervisedProcess({
    file: options.binaryPath,
    args: HOST_SERVE_ARGUMENTS,
    cwd: options.workspace,
    env: options.env,
    // NOTE: snodo talks to the server over 127.0.0.1, so its network namespace must be the host's.
    ...(options.sandbox === undefined ? {} : { sandbox: { ...options.sandbox, network: true } }),
    killGraceMs: options.killGraceMs,
    ...(options.onStart === undefined ? {} : { onStart: options.onStart }),
    onOutput: (stream, chunk) => {
      options.transcript.serverOutput(stream, chunk);
      if (stream !== 'stdout' || address !== undefined) return;
      searched = (searched + chunk.toString('utf8')).slice(-64 * 1024);
      const match = listeningAddress.exec(searched);
      if (match?.[1] !== undefined) {
        address = match[1].replace(/\/+$/, '');
        announce(address);
      }
    },
  });
  let ended: SupervisedProcessOutcome | undefined;
  const exited = server.exited.then((outcome) => {
    ended = outcome;
    return outcome;
  });
  let stopping: Promise<unknown> | undefined;
  const stop = async () => {
    stopping ??= server.stop('requested');
    await stopping;
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
    exited.then((ending) => ({ ending }) as const),
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
      description: `the OpenCode server snodo started (pid ${server.pid})`,
      exitDescription: () => (ended === undefined ? undefined : describeExit(ended)),
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
  const ending = typeof outcome === 'object' ? outcome.ending : undefined;
  if (ending?.spawnError !== undefined) {
    const what =
      ending.spawnError.file === options.binaryPath
        ? `\`${argv.join(' ')}\``
        : `its sandbox (${ending.spawnError.file})`;
    throw new CoderFailedError({
      ...who,
      stderrTail,
      reason: `could not start ${what}: ${ending.spawnError.message}`,
    });
  }
  const what =
    ending !== undefined
      ? `${describeExit(ending)} before it printed the address it listens on`
      : `printed no address within ${Math.round(startupLimit / 1000)}s`;
  throw new CoderFailedError({
    ...who,
    stderrTail,
    reason: `could not start its server: \`${argv.slice(1).join(' ')}\` ${what}`,
    ...(ending?.exitCode === undefined ? {} : { exitCode: ending.exitCode }),
  });
}
