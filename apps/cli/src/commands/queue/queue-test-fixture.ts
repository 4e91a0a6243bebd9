import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { SNODO_BIN, type SnodoResult, TEST_PROTOCOL } from '../../testing/cli-fixture.js';

// Test support only: a real redis-server on 127.0.0.1, a bare repository as the shared remote, and
// "machines" (a clone and a $SNODO_HOME each) that run the BUILT snodo, as workers or as users.

/** Where the system's redis-server is, or why the distributed tests skip. */
export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) =>
  existsSync(path),
);
export const REDIS_SKIP_REASON =
  'redis-server is not installed (apt-get install redis-server; .ci/run installs it)';

/** The protocol of the queue tests: the CLI tests' own (a judge before, a judge and a command gate after). */
export const QUEUE_PROTOCOL = TEST_PROTOCOL;

/** A protocol whose post-execute judge decides alone: `-m mock/warn` escalates a finished change to a human. */
export const ESCALATING_PROTOCOL = `protocol_id: queue-escalate
name: Queue escalation protocol
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [ready, security]
validators:
  - validator_id: ready
    validator_type: quality
    evaluation_phase: pre_execute
    tooling:
      test_command: [node, -e, "process.exit(0)"]
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;

/**
 * The coder of the queue tests, a command-template coder: it takes the file name from the task ("… file-NAME
 * …"), sleeps 2 s ("sleep-N": N s; "keep-sleeping": 60 s) and writes NAME.txt. Its processes
 * are found through /proc (`coderProcesses`), whatever sandbox it runs in.
 */
const SLEEPY_CODER = `import { writeFileSync } from 'node:fs';
const prompt = process.argv[2] ?? '';
const name = /file-([a-z0-9]+)/.exec(prompt)?.[1] ?? 'unnamed';
const ms = prompt.includes('keep-sleeping') ? 60000 : Number(/sleep-(\\d+)/.exec(prompt)?.[1] ?? 2) * 1000;
await new Promise((resolve) => setTimeout(resolve, ms));
writeFileSync(name + '.txt', name + '\\n');
console.log('sleepy coder wrote ' + name + '.txt');
`;

/** A running redis-server with its data directory (AOF on, so a restart keeps every job). */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts redis-server on a random port of 127.0.0.1 with its files in `directory`. */
export async function startRedis(directory: string): Promise<RedisServer> {
  const port = await freePort();
  mkdirSync(directory, { recursive: true });
  let child: ChildProcess | undefined;
  const start = async () => {
    const server = spawn(
      REDIS_SERVER as string,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        directory,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const server = child;
      if (server === undefined || server.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
      });
    },
  };
}

/** A worker process of the built CLI, with what it printed so far. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** One "machine": its own clone of the shared remote and its own $SNODO_HOME (config, key, worker id). */
export interface Machine {
  readonly name: string;
  readonly clone: string;
  readonly snodoHome: string;
  readonly env: Record<string, string>;
  snodo(args: readonly string[], options?: { timeout?: number }): Promise<SnodoResult>;
  startWorker(args?: readonly string[]): WorkerProcess;
  git(args: readonly string[]): string;
}

/** The shared remote, its machines and the queue server. */
export interface QueueFixture {
  readonly directory: string;
  readonly remote: string;
  readonly redis: RedisServer;
  /** The `queue.url` every machine has: the Redis server's, or the PostgreSQL server's. */
  readonly queueUrl: string;
  machine(name: string, extraConfig?: string): Machine;
  /** git in the bare remote. */
  remoteGit(args: readonly string[]): string;
  cleanup(): Promise<void>;
}

/** A bare remote holding `protocol`, a redis-server, and a way to make machines on them. */
export async function createQueueFixture(
  protocol = QUEUE_PROTOCOL,
  backend: 'redis' | 'postgres' = 'redis',
): Promise<QueueFixture> {
  const directory = mkdtempSync(join(tmpdir(), 'snodo-queue-'));
  const home = join(directory, 'home');
  mkdirSync(home);
  const gitConfig = join(home, '.gitconfig');
  writeFileSync(gitConfig, '[user]\n\tname = Test User\n\temail = test@example.com\n');
  const coder = join(directory, 'sleepy-coder.mjs');
  writeFileSync(coder, SLEEPY_CODER);
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitConfig,
    LANG: 'C.UTF-8',
    USER: 'tester',
    NO_COLOR: '1',
  };
  const git = (args: readonly string[], cwd: string) =>
    execFileSync('git', args, {
      cwd,
      env: baseEnv,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  const remote = join(directory, 'remote.git');
  git(['init', '--quiet', '--bare', '--initial-branch', 'main', remote], directory);
  const seed = join(directory, 'seed');
  git(['clone', '--quiet', remote, seed], directory);
  mkdirSync(join(seed, '.snodo'));
  writeFileSync(join(seed, 'README.md'), '# shared\n');
  writeFileSync(join(seed, '.snodo', 'protocol.yml'), protocol);
  git(['add', '--all'], seed);
  git(['commit', '--quiet', '-m', 'initial'], seed);
  git(['push', '--quiet', 'origin', 'HEAD:main'], seed);
  const redis = await startRedis(join(directory, 'redis'));
  const postgres = backend === 'postgres' ? await startPostgres() : undefined;
  const queueUrl = postgres?.url ?? redis.url;
  const workers: WorkerProcess[] = [];
  const coderCommand = JSON.stringify([process.execPath, coder, '{prompt}']);
  return {
    directory,
    remote,
    redis,
    queueUrl,
    remoteGit: (args) => git(args, remote),
    machine(name, extraConfig = '') {
      const clone = join(directory, name);
      const snodoHome = join(directory, `${name}-home`);
      git(['clone', '--quiet', remote, clone], directory);
      mkdirSync(snodoHome, { mode: 0o700 });
      writeFileSync(
        join(snodoHome, 'config.yml'),
        `queue:\n  url: ${queueUrl}\n  lock_seconds: 3\n  stalled_interval_seconds: 1\n` +
          `coders:\n  sleepy:\n    command: ${coderCommand}\n${extraConfig}`,
        { mode: 0o600 },
      );
      const env = { ...baseEnv, SNODO_HOME: snodoHome };
      return {
        name,
        clone,
        snodoHome,
        env,
        git: (args) => git(args, clone),
        snodo: (args, options = {}) =>
          execa(process.execPath, [SNODO_BIN, ...args], {
            cwd: clone,
            env,
            extendEnv: false,
            reject: false,
            all: true,
            stdin: 'ignore',
            timeout: options.timeout ?? 60_000,
          }) as Promise<SnodoResult>,
        startWorker(args = []) {
          const child = spawn(process.execPath, [SNODO_BIN, 'worker', ...args], {
            cwd: clone,
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          child.stderr?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
          const worker = { child, output: () => output, exited };
          workers.push(worker);
          return worker;
        },
      };
    },
    async cleanup() {
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((worker) => worker.exited));
      await redis.stop();
      await postgres?.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 200 ms until it returns true or `timeoutMs` passes. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
}

/** The pids of sleepy-coder processes (on this machine, from /proc) working on file-`name`. */
export function coderProcesses(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (
        argv.some((arg) => arg.endsWith('sleepy-coder.mjs')) &&
        argv.some((arg) => arg.includes(`file-${name}`))
      ) {
        pids.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The jobs named in `Snodo-Job` trailers on the remote base's first-parent history, oldest last. */
export function landedJobs(fixture: QueueFixture): string[] {
  return fixture
    .remoteGit(['log', '--first-parent', '--format=%B%x01', 'main'])
    .split('\x01')
    .map((entry) => /Snodo-Job: (\S+)/.exec(entry)?.[1])
    .filter((id): id is string => id !== undefined);
}

/** The system's PostgreSQL binaries (Debian: /usr/lib/postgresql/<major>/bin), or why the PostgreSQL test skips. */
export const POSTGRES_BIN = ['17', '16', '15', '14', '13']
  .map((major) => `/usr/lib/postgresql/${major}/bin`)
  .find((directory) => existsSync(join(directory, 'postgres')) && existsSync(join(directory, 'initdb')));
export const POSTGRES_SKIP_REASON =
  'PostgreSQL ≥ 13 is not installed (apt-get install postgresql; .ci/run installs it)';

/**
 * A throw-away PostgreSQL cluster on a random port of 127.0.0.1 (trust auth, user `snodo`). PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` user the Debian package creates.
 */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = POSTGRES_BIN as string;
  const directory = mkdtempSync(join(tmpdir(), 'snodo-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', directory]);
  const run = (command: string, args: readonly string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  const data = join(directory, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'snodo', '--no-sync']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    join(directory, 'log'),
    '-o',
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    url: `postgres://snodo@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
