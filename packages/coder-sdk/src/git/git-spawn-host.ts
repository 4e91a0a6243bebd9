import { type ChildProcess, spawn } from 'node:child_process';

/**
 * A small Node process that starts snodo's git commands for it. Node's `spawn` blocks the event loop until
 * the child has exec'd, and that fork costs more the larger the process: 1.7 ms from a fresh Node, 3–6 ms
 * from a pipeline run's process (more with eight runs at once), about thirty times a run. From a process of
 * its own with a tiny heap the fork stays cheap and, above all, off snodo's event loop, so concurrent runs
 * and a worker's slots overlap instead of queueing behind each other's spawns (figures in ARCHITECTURE.md,
 * "One git runner").
 *
 * The wire is the host's stdin and stdout, one command at a time per request id:
 * - request: one JSON line `{ id, file, args, cwd, env, input }` (`input` a string for git's stdin, or
 *   `null` to close it);
 * - reply: one JSON line `{ id, code, error, out, err }`, then `out` bytes of git's stdout and `err` bytes of
 *   its stderr, exactly as git wrote them (`-z` output, patches). `code` is `null` when git did not start
 *   or was killed, with `error` saying why. The host's first line is a reply with id -1 and no bytes: it is ready.
 *
 * The host gets no environment of its own (each command carries the one `runGit` built), ignores the
 * signals of snodo's process group (git itself still gets them, as before) and stops when its stdin
 * closes, that is when snodo exits, after the commands it started have finished.
 */
const HOST_SOURCE = `'use strict';
const { spawn } = require('node:child_process');
// A signal to snodo's process group (Ctrl-C, a service manager's SIGTERM) is snodo's to handle: it may
// still run git to stop cleanly. The host ends with its stdin, that is with snodo.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  // Only the new text can hold a newline: a long request is scanned once, not once per chunk.
  let end = pending.length + text.indexOf('\\n');
  pending += text;
  if (end < pending.length - text.length) return;
  let start = 0;
  for (; end !== -1; end = pending.indexOf('\\n', start)) {
    run(JSON.parse(pending.slice(start, end)));
    start = end + 1;
  }
  pending = pending.slice(start);
});
function run(request) {
  const out = [];
  const err = [];
  let replied = false;
  const reply = (code, error) => {
    if (replied) return;
    replied = true;
    const stdout = Buffer.concat(out);
    const stderr = Buffer.concat(err);
    process.stdout.write(JSON.stringify({ id: request.id, code, error, out: stdout.length, err: stderr.length }) + '\\n');
    process.stdout.write(stdout);
    process.stdout.write(stderr);
  };
  let child;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio: [request.input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    reply(null, String(error && error.message));
    return;
  }
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  if (request.input !== null) {
    child.stdin.on('error', () => {});
    child.stdin.end(request.input);
  }
  child.once('error', (error) => reply(null, error.message));
  child.once('close', (code, signal) => reply(code, code === null ? 'git was killed by ' + signal : undefined));
}
process.stdout.write(JSON.stringify({ id: -1, code: 0, out: 0, err: 0 }) + '\\n');
`;

/** One git command for the host: what `spawn` would get. */
export interface HostedGitCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly input?: string | undefined;
}

/** How a hosted command ended: as `spawn`'s `close` (and `error`) would have said. */
export interface HostedGitExit {
  readonly code: number | null;
  readonly error?: Error | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

interface ReplyHeader {
  readonly id: number;
  readonly code: number | null;
  readonly error?: string;
  readonly out: number;
  readonly err: number;
}

/**
 * Reads the host's replies from its stdout: a header line, then its two bodies, in chunks of any size.
 * Bodies are gathered as chunks and joined once, so a large patch costs one copy.
 */
export class ReplyReader {
  #head: Buffer = Buffer.alloc(0);
  #header: ReplyHeader | undefined;
  #body: Buffer[] = [];
  #bodyLength = 0;

  constructor(
    private readonly onReply: (header: ReplyHeader, stdout: Buffer, stderr: Buffer) => void,
    /** The stream is not the host's wire format (something else printed there): nothing more is read. */
    private readonly onGarbled: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.#header === undefined)
      this.#head = this.#head.length === 0 ? chunk : Buffer.concat([this.#head, chunk]);
    else {
      this.#body.push(chunk);
      this.#bodyLength += chunk.length;
    }
    for (;;) {
      if (this.#header === undefined) {
        const end = this.#head.indexOf(10);
        if (end === -1) return;
        const header = parseHeader(this.#head.subarray(0, end));
        if (header === undefined) {
          this.onGarbled();
          return;
        }
        this.#header = header;
        const rest = this.#head.subarray(end + 1);
        this.#head = Buffer.alloc(0);
        this.#body = rest.length > 0 ? [rest] : [];
        this.#bodyLength = rest.length;
      }
      const header = this.#header;
      const needed = header.out + header.err;
      if (this.#bodyLength < needed) return;
      const body = this.#body.length === 1 ? (this.#body[0] as Buffer) : Buffer.concat(this.#body);
      this.#header = undefined;
      this.#body = [];
      this.#bodyLength = 0;
      // A copy of what follows (usually nothing), so the body is not kept alive by a view of it.
      this.#head = body.length === needed ? Buffer.alloc(0) : Buffer.from(body.subarray(needed));
      this.onReply(header, body.subarray(0, header.out), body.subarray(header.out, needed));
    }
  }
}

function parseHeader(line: Buffer): ReplyHeader | undefined {
  try {
    const header = JSON.parse(line.toString('utf8')) as Partial<ReplyHeader>;
    const sizes = [header.out, header.err];
    if (
      typeof header.id !== 'number' ||
      !sizes.every((size) => Number.isSafeInteger(size) && (size as number) >= 0)
    ) {
      return undefined;
    }
    return header as ReplyHeader;
  } catch {
    return undefined;
  }
}

/** A started host: commands go to it once it said it is ready. */
class GitSpawnHost {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (exit: HostedGitExit) => void>();
  #nextId = 0;
  #ready = false;
  #gone = false;

  constructor(onGone: (host: GitSpawnHost) => void) {
    this.#child = spawn(process.execPath, ['-e', HOST_SOURCE], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: {},
    });
    const reader = new ReplyReader(
      (header, stdout, stderr) => {
        if (header.id === -1) {
          this.#ready = true;
          return;
        }
        const resolve = this.#waiting.get(header.id);
        this.#waiting.delete(header.id);
        this.#holdOpen();
        resolve?.({
          code: header.code,
          ...(header.error === undefined ? {} : { error: new Error(header.error) }),
          stdout: stdout.toString('utf8'),
          stderr: stderr.toString('utf8'),
        });
      },
      // Its `close` then fails what is pending.
      () => this.#child.kill('SIGKILL'),
    );
    this.#child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
    this.#child.stdin?.on('error', () => {});
    const gone = (why: string) => {
      if (this.#gone) return;
      this.#gone = true;
      onGone(this);
      // A command the host may or may not have run is not run again here: `commit` or `update-ref` twice
      // is not the same as once. The caller gets a failure that says what happened.
      for (const resolve of this.#waiting.values()) {
        resolve({ code: null, error: new Error(`snodo's git spawn host ${why}`), stdout: '', stderr: '' });
      }
      this.#waiting.clear();
    };
    this.#child.once('error', (error) => gone(`could not start: ${error.message}`));
    // `close`, not `exit`: replies already in the pipe are read before the rest are failed.
    this.#child.once('close', (code, signal) => gone(`exited (${signal ?? `code ${code}`}) mid-command`));
    this.#holdOpen();
  }

  get ready(): boolean {
    return this.#ready && !this.#gone;
  }

  get processId(): number | undefined {
    return this.#child.pid;
  }

  run(command: HostedGitCommand): Promise<HostedGitExit> {
    const id = this.#nextId++;
    const done = new Promise<HostedGitExit>((resolve) => this.#waiting.set(id, resolve));
    this.#holdOpen();
    const { file, args, cwd, env } = command;
    this.#child.stdin?.write(
      `${JSON.stringify({ id, file, args, cwd, env, input: command.input ?? null })}\n`,
    );
    return done;
  }

  /** The host keeps snodo alive only while a command is out: an idle host never delays snodo's exit. */
  #holdOpen(): void {
    const busy = this.#waiting.size > 0;
    for (const handle of [this.#child, this.#child.stdout, this.#child.stdin]) {
      if (handle === null || handle === undefined) continue;
      const refable = handle as { ref?: () => void; unref?: () => void };
      if (busy) refable.ref?.();
      else refable.unref?.();
    }
  }
}

/** After this many hosts die, git is spawned directly for the rest of the process. */
const MAX_HOST_STARTS = 3;
/**
 * Git calls spawned directly before a host is started: a command that runs a few (`snodo task list`,
 * `config`, `doctor`) never pays for one; a run, with its thirty, has it ready after the first stage.
 */
const CALLS_BEFORE_HOST = 3;
let host: GitSpawnHost | undefined;
let hostStarts = 0;
let directCalls = 0;

/**
 * The ready host, or `undefined` (the caller spawns git itself): for a process's first
 * `CALLS_BEFORE_HOST` calls, while the host starts, when it is turned off (`SNODO_GIT_SPAWN_HOST=off`), or
 * after it died `MAX_HOST_STARTS` times.
 */
export function gitSpawnHost(): { run(command: HostedGitCommand): Promise<HostedGitExit> } | undefined {
  if (host === undefined) {
    directCalls += 1;
    if (
      directCalls <= CALLS_BEFORE_HOST ||
      hostStarts >= MAX_HOST_STARTS ||
      process.env.SNODO_GIT_SPAWN_HOST === 'off' ||
      // `-e` is Node's: another runtime may not start the host so (snodo ships no single-executable build,
      // whose binary would not read `-e` either).
      process.release.name !== 'node'
    ) {
      return undefined;
    }
    hostStarts += 1;
    host = new GitSpawnHost((gone) => {
      if (host === gone) host = undefined;
    });
  }
  return host.ready ? host : undefined;
}

/** The running host's process id (tests kill it to see a death handled); not exported by the package. */
export function gitSpawnHostProcessId(): number | undefined {
  return host?.processId;
}
