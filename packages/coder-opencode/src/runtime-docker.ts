import { randomBytes } from 'node:crypto';
import { CoderAbortedError, CoderFailedError, CoderTimeoutError } from '@snodo/coder-sdk';
import { execa } from 'execa';
import type { OpencodeRuntime } from './opencode-runtime.js';
import type { OpencodeTranscript } from './opencode-transcript.js';

/** The port `opencode serve` listens on inside the container; docker publishes it on a free loopback port. */
export const CONTAINER_PORT = 4096;

/** Where the server's private home and XDG directories live inside the container (never on the host). */
export const CONTAINER_STATE_DIRECTORY = '/tmp/snodo-opencode';

/** What the docker runtime needs. */
export interface DockerRuntimeOptions {
  /** The coder, for error messages. */
  readonly who: { readonly coderId: string; readonly displayName: string };
  /** The docker CLI. */
  readonly dockerPath: string;
  /** The image; `opencode` must be on its PATH. */
  readonly image: string;
  /** The worktree, mounted at the same path so the paths the server reports are the host's paths. */
  readonly workspace: string;
  /** The repository's git directory when it lies outside the worktree (a linked worktree's common dir). */
  readonly gitCommonDirectory: string | undefined;
  /** The job id, for the container's name and labels. */
  readonly jobId: string;
  /** The docker CLI's environment: the coder's own (PATH, HOME for ~/.docker, DOCKER_* from config). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Variables for the server. They reach the container by name only (`--env NAME`), with their values
   * in the docker CLI's environment, so no value (the password, a key in the config) appears in argv.
   */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** The server password (also in `serverEnv`). */
  readonly password: string;
  /** How long the container may take to answer; see `waitUntilReady`. */
  readonly startupTimeoutMs: number;
  /** The attempt's wall-clock limit and when it ends. */
  readonly timeoutMs: number;
  readonly deadline: number;
  /** Cancels the start. */
  readonly abortSignal: AbortSignal;
  /** Receives docker's output and the container's logs. */
  readonly transcript: OpencodeTranscript;
  /**
   * Waits until the published server answers as OpenCode 1.x (connection failures are retried); throws
   * the final failure. Supplied by the adapter, which owns the HTTP client.
   */
  readonly waitUntilReady: (url: string, limitMs: number) => Promise<void>;
}

/** The `docker run` argv (after the docker binary) for one attempt. */
export function dockerRunArguments(options: {
  readonly containerName: string;
  readonly image: string;
  readonly workspace: string;
  readonly gitCommonDirectory: string | undefined;
  readonly jobId: string;
  readonly serverEnvNames: readonly string[];
  readonly user: string | undefined;
}): string[] {
  const mount = (directory: string) => ['--volume', `${directory}:${directory}`];
  const home = `${CONTAINER_STATE_DIRECTORY}/home`;
  const containerDirectories = {
    HOME: home,
    XDG_CONFIG_HOME: `${CONTAINER_STATE_DIRECTORY}/config`,
    XDG_DATA_HOME: `${CONTAINER_STATE_DIRECTORY}/data`,
    XDG_CACHE_HOME: `${CONTAINER_STATE_DIRECTORY}/cache`,
    XDG_STATE_HOME: `${CONTAINER_STATE_DIRECTORY}/state`,
  };
  return [
    'run',
    '--detach',
    '--rm',
    '--name',
    options.containerName,
    '--label',
    'snodo.coder=opencode',
    '--label',
    `snodo.job=${options.jobId}`,
    '--publish',
    `127.0.0.1::${CONTAINER_PORT}`,
    ...mount(options.workspace),
    ...(options.gitCommonDirectory === undefined ? [] : mount(options.gitCommonDirectory)),
    '--workdir',
    options.workspace,
    ...(options.user === undefined ? [] : ['--user', options.user]),
    ...Object.entries(containerDirectories).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
    ...options.serverEnvNames
      .filter((name) => !(name in containerDirectories))
      .flatMap((name) => ['--env', name]),
    '--entrypoint',
    'opencode',
    options.image,
    'serve',
    '--hostname',
    '0.0.0.0',
    '--port',
    String(CONTAINER_PORT),
  ];
}

/** The first `host:port` line of `docker port` as a loopback URL (`127.0.0.1:49153` → `http://127.0.0.1:49153`). */
export function publishedUrl(output: string): string | undefined {
  for (const line of output.split('\n')) {
    const match = /^\s*(0\.0\.0\.0|127\.0\.0\.1|\[::1?\]):(\d+)\s*$/.exec(line);
    if (match?.[2] !== undefined) return `http://127.0.0.1:${match[2]}`;
  }
  return undefined;
}

/**
 * Starts one container per attempt running `opencode serve` (reuse is what the `url` runtime is for):
 * named `snodo-opencode-<job>-<random>` and labelled `snodo.coder=opencode`, `snodo.job=<job>` so a
 * container left by a crashed snodo is easy to find (`docker ps --filter label=snodo.coder=opencode`).
 * The worktree (and the git directory it points at) is mounted at its own path, the server port is
 * published on a free 127.0.0.1 port read back with `docker port`, and the runtime waits until the
 * server answers. `stop` copies the container's logs into the transcript and runs `docker rm --force`;
 * a failed start does the same before throwing.
 */
export async function startDockerRuntime(options: DockerRuntimeOptions): Promise<OpencodeRuntime> {
  const who = options.who;
  const containerName = `snodo-opencode-${options.jobId.replace(/[^\w.-]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const user =
    typeof process.getuid === 'function' && typeof process.getgid === 'function'
      ? `${process.getuid()}:${process.getgid()}`
      : undefined;
  const runArguments = dockerRunArguments({
    containerName,
    image: options.image,
    workspace: options.workspace,
    gitCommonDirectory: options.gitCommonDirectory,
    jobId: options.jobId,
    serverEnvNames: Object.keys(options.serverEnv).sort(),
    user,
  });
  const argv = [options.dockerPath, ...runArguments];
  // The values of the server's variables ride in the docker CLI's environment (argv names them only);
  // the container's directories are set in argv and kept out of it, where they would mislead docker itself.
  const dockerEnv: Record<string, string> = { ...options.env };
  for (const [name, value] of Object.entries(options.serverEnv)) {
    if (!name.startsWith('XDG_') && name !== 'HOME') dockerEnv[name] = value;
  }
  const docker = async (args: readonly string[], timeoutMs: number, cancelSignal?: AbortSignal) => {
    const result = await execa(options.dockerPath, [...args], {
      env: dockerEnv,
      ...(cancelSignal === undefined ? {} : { cancelSignal }),
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: timeoutMs,
      stripFinalNewline: true,
      windowsHide: true,
    });
    return {
      exitCode: result.exitCode,
      stdout: String(result.stdout ?? ''),
      stderr: String(result.stderr ?? ''),
      failed: result.failed,
    };
  };

  let containerId: string | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped || containerId === undefined) return;
    stopped = true;
    const logs = await docker(['logs', '--tail', '500', containerId], 15_000).catch(() => undefined);
    if (logs !== undefined && logs.exitCode === 0) {
      if (logs.stdout !== '') options.transcript.serverOutput('stdout', `${logs.stdout}\n`);
      if (logs.stderr !== '') options.transcript.serverOutput('stderr', `${logs.stderr}\n`);
    }
    const removed = await docker(['rm', '--force', containerId], 30_000).catch((error: unknown) => ({
      exitCode: undefined,
      stdout: '',
      stderr: String(error),
      failed: true,
    }));
    if (removed.exitCode !== 0) {
      options.transcript.note(
        `[snodo] could not remove container ${containerName}: ${removed.stderr.trim()}; remove it with \`docker rm -f ${containerName}\``,
      );
    }
  };
  /** The error for a failed start: the cancel or the attempt's limit when either came first. */
  const failure = (reason: string, stderrTail: string): Error => {
    if (options.abortSignal.aborted)
      return new CoderAbortedError({ ...who, cause: options.abortSignal.reason });
    if (Date.now() >= options.deadline) {
      return new CoderTimeoutError({ ...who, limit: 'wall-clock', timeoutMs: options.timeoutMs });
    }
    return new CoderFailedError({ ...who, reason, stderrTail });
  };
  const fail = async (reason: string, stderrTail: string): Promise<never> => {
    await stop();
    throw failure(reason, stderrTail);
  };

  options.transcript.note(`$ ${JSON.stringify(argv)}`);
  const startLimit = () => Math.max(Math.min(options.startupTimeoutMs, options.deadline - Date.now()), 1);
  const run = await docker(runArguments, startLimit(), options.abortSignal);
  if (run.exitCode === 0) containerId = run.stdout.trim().split('\n').pop()?.trim() || containerName;
  else {
    // A `docker run` that timed out may still have created the container; remove it by name.
    containerId = containerName;
    return fail(
      `could not start its container: \`docker run\` ${describe(run)} (image ${options.image})`,
      run.stderr,
    );
  }
  if (options.abortSignal.aborted) return fail('was cancelled', '');

  const port = await docker(['port', containerId, `${CONTAINER_PORT}/tcp`], 15_000);
  const url = port.exitCode === 0 ? publishedUrl(port.stdout) : undefined;
  if (url === undefined) {
    return fail(
      `started container ${containerName} but \`docker port\` named no published port for ${CONTAINER_PORT}/tcp (${describe(port)})`,
      port.stderr,
    );
  }
  try {
    await options.waitUntilReady(url, startLimit());
  } catch (error) {
    await stop();
    // A refused version is the more useful error: it says what to change.
    if ((error as { code?: unknown }).code === 'CODER_CLI_VERSION_UNSUPPORTED') throw error;
    throw failure(
      `started container ${containerName} but the OpenCode server in it did not become ready at ${url}: ` +
        (error instanceof Error ? error.message : String(error)),
      options.transcript.stderrTail(),
    );
  }
  return {
    kind: 'docker',
    url,
    username: 'opencode',
    password: options.password,
    argv,
    description: `the OpenCode server in container ${containerName}`,
    exitDescription: () => undefined,
    stderrTail: () => options.transcript.stderrTail(),
    stop,
  };
}

function describe(result: { exitCode: number | undefined; stderr: string; failed: boolean }): string {
  const stderr = result.stderr.trim().split('\n').slice(-3).join(' / ');
  const how = result.exitCode === undefined ? 'did not finish' : `exited with code ${result.exitCode}`;
  return stderr === '' ? how : `${how}: ${stderr}`;
}
