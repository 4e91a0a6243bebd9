import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { gitExecutable } from '@snodo/coder-sdk/git';
import { dotGitIdentity } from './dot-git-identity.js';
import { gitEnvironment, hardeningArguments } from './git.js';

// One run asks "which commit is this ref at" a few dozen times, in the user's repository and in the task
// workspace; each one-shot `git rev-parse` costs a process (10–15 ms here, most of it exec). A reader is one
// long-lived `git cat-file --batch-command` per repository: a question is a line on its stdin (`info <rev>`,
// answered by one line; `contents <rev>`, answered by that line and the object's bytes), the answer on its
// stdout. It reads refs and objects afresh for every line (a ref moved or an object fetched by another
// process meanwhile is seen), so it answers exactly what `rev-parse --verify <rev>^{commit}` would, and
// what `git show <rev>` or `rev-list --parents -1` would print of a small object (a commit's parents, the
// audit anchor's checkpoint) without a process of their own.
//
// Lifetime: started on the first question, ended after `idleMs` (5 s) without one, and never what keeps Node
// alive (its handles are unref'd while it waits). When Node dies its stdin closes and git exits. Its stdin
// is the question channel, so unlike every other git snodo runs it is not closed; nothing but revisions
// snodo resolved itself is ever written to it.

const idleMs = 5_000;
const answerTimeoutMs = 30_000;

/** One object read with `contents`: its header fields and its bytes. */
export interface ReaderObject {
  readonly name: string;
  readonly type: string;
  readonly content: Buffer;
}

type Question =
  | {
      readonly kind: 'info';
      readonly count: number;
      readonly answers: string[];
      readonly resolve: (lines: string[]) => void;
      readonly reject: (error: Error) => void;
    }
  | {
      readonly kind: 'contents';
      /** The header read, waiting for `size` bytes and a line feed. */
      header?: { readonly name: string; readonly type: string; readonly size: number };
      readonly resolve: (object: ReaderObject | 'missing') => void;
      readonly reject: (error: Error) => void;
    };

// `%(objectsize)` is what lets the reader tell where a `contents` answer's bytes end.
const answerFormat = '%(objectname) %(objecttype) %(objectsize)';

class CommitReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Question[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private idleTimer: NodeJS.Timeout | undefined;
  private answerTimer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    readonly cwd: string,
    readonly identity: string,
    private readonly onClose: (reader: CommitReader) => void,
  ) {
    this.child = spawn(
      gitExecutable(),
      [...hardeningArguments, 'cat-file', `--batch-command=${answerFormat}`],
      {
        cwd,
        env: gitEnvironment({ readOnly: true, extra: {} }),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, like every git snodo runs, so a signal to snodo's group is not shared.
        detached: true,
      },
    );
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stderr.resume();
    this.child.on('error', (error) => this.close(error));
    this.child.on('close', () => this.close(new Error('git cat-file ended')));
    this.child.stdin.on('error', (error) => this.close(error));
    this.sleep();
  }

  ask(revisions: readonly string[]): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the reader is closed'));
    return new Promise<string[]>((resolve, reject) => {
      this.waiting.push({ kind: 'info', count: revisions.length, answers: [], resolve, reject });
      this.wake();
      this.child.stdin.write(revisions.map((revision) => `info ${revision}\n`).join(''));
    });
  }

  contents(revision: string): Promise<ReaderObject | 'missing'> {
    if (this.closed) return Promise.reject(new Error('the reader is closed'));
    return new Promise<ReaderObject | 'missing'>((resolve, reject) => {
      this.waiting.push({ kind: 'contents', resolve, reject });
      this.wake();
      this.child.stdin.write(`contents ${revision}\n`);
    });
  }

  close(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.answerTimer);
    for (const question of this.waiting.splice(0)) question.reject(error ?? new Error('the reader closed'));
    // An idle reader ends on its own when its stdin closes; only one that failed is killed.
    this.child.stdin.end();
    if (error !== undefined && this.child.exitCode === null && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.onClose(this);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const question = this.waiting[0];
      if (question === undefined) {
        if (this.buffered.length > 0) {
          this.close(
            new Error(`git cat-file said more than it was asked: ${this.buffered.toString('utf8')}`),
          );
          return;
        }
        break;
      }
      if (question.kind === 'contents' && question.header !== undefined) {
        // The object's bytes, then the line feed git puts after them.
        const { size, name, type } = question.header;
        if (this.buffered.length < size + 1) return;
        const content = Buffer.from(this.buffered.subarray(0, size));
        this.buffered = this.buffered.subarray(size + 1);
        this.waiting.shift();
        question.resolve({ name, type, content });
        continue;
      }
      const newline = this.buffered.indexOf(10);
      if (newline === -1) return;
      const line = this.buffered.subarray(0, newline).toString('utf8');
      this.buffered = this.buffered.subarray(newline + 1);
      if (question.kind === 'info') {
        question.answers.push(line);
        if (question.answers.length === question.count) {
          this.waiting.shift();
          question.resolve(question.answers);
        }
        continue;
      }
      const [name = '', type = '', size = ''] = line.split(' ');
      if (/^[0-9a-f]{40,64}$/.test(name) && /^[0-9]+$/.test(size) && type !== '') {
        question.header = { name, type, size: Number(size) };
        continue;
      }
      // `<rev> missing` or `<rev> ambiguous`: no bytes follow.
      this.waiting.shift();
      question.resolve('missing');
    }
    if (this.waiting.length === 0) this.sleep();
  }

  /** A question is in flight: keep Node alive for the answer, and give up on one that never comes. */
  private wake(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.child.ref();
    handle(this.child.stdout).ref?.();
    clearTimeout(this.answerTimer);
    this.answerTimer = setTimeout(
      () => this.close(new Error(`git cat-file gave no answer in ${answerTimeoutMs} ms`)),
      answerTimeoutMs,
    );
  }

  /** Nothing in flight: let Node exit without waiting, and end the reader if nobody asks for a while. */
  private sleep(): void {
    clearTimeout(this.answerTimer);
    this.answerTimer = undefined;
    this.child.unref();
    for (const stream of [this.child.stdout, this.child.stderr, this.child.stdin]) handle(stream).unref?.();
    this.idleTimer = setTimeout(() => this.close(), idleMs);
    this.idleTimer.unref();
  }
}

/** A child's pipes are sockets: they hold Node's event loop open unless unref'd. */
function handle(stream: object): { ref?: () => void; unref?: () => void } {
  return stream as { ref?: () => void; unref?: () => void };
}

const readers = new Map<string, CommitReader>();

/**
 * The repository's reader, started if need be; `undefined` when `cwd` is not the top of a working tree (a
 * reader is kept only for those, checked against the `.git` entry's identity so a repository made again at
 * the same path gets a new one).
 */
function readerFor(cwd: string): CommitReader | undefined {
  const key = path.resolve(cwd);
  const identity = dotGitIdentity(key);
  if (identity === undefined) return undefined;
  let reader = readers.get(key);
  if (reader !== undefined && reader.identity !== identity) {
    reader.close();
    reader = undefined;
  }
  if (reader === undefined) {
    reader = new CommitReader(key, identity, (closed) => {
      if (readers.get(closed.cwd) === closed) readers.delete(closed.cwd);
    });
    readers.set(key, reader);
  }
  return reader;
}

/**
 * `cat-file --batch-check` answer lines (`<name> <type> <size>`, or `<rev> missing`) for `revisions` (each
 * `<rev>^{commit}` already), through the repository's reader; `undefined` when there is no reader for `cwd`
 * or it failed — the caller then asks a one-shot git.
 */
export async function askCommitReader(
  cwd: string,
  revisions: readonly string[],
): Promise<string[] | undefined> {
  try {
    return await readerFor(cwd)?.ask(revisions);
  } catch {
    return undefined;
  }
}

/**
 * The object `revision` names with its bytes (`git cat-file <type> <rev>`), through the repository's
 * reader: `'missing'` when it names nothing, `undefined` when there is no reader for `cwd` or it failed —
 * the caller then asks a one-shot git. For small objects: one larger than `maxBytes` (default 1 MiB) is
 * `undefined` too, so the caller's git streams it instead.
 */
export async function readObjectThroughReader(
  cwd: string,
  revision: string,
  options: { maxBytes?: number } = {},
): Promise<ReaderObject | 'missing' | undefined> {
  if (/[\r\n]/.test(revision) || revision.trim() === '') return 'missing';
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  try {
    const reader = readerFor(cwd);
    if (reader === undefined) return undefined;
    // Its size first: an object a coder made (a commit with a huge message) is never read into memory here.
    const [name = '', , size = ''] = ((await reader.ask([revision]))[0] ?? '').split(' ');
    if (!/^[0-9]+$/.test(size)) return 'missing';
    if (Number(size) > maxBytes) return undefined;
    const object = await reader.contents(name);
    return object === 'missing' || object.name !== name ? undefined : object;
  } catch {
    return undefined;
  }
}

/** Ends every reader now (tests, and an embedder that wants no child left before it exits). */
export function closeCommitReaders(): void {
  for (const reader of [...readers.values()]) reader.close();
}
