import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { gitExecutable } from '@snodo/coder-sdk/git';
import { dotGitIdentity } from './dot-git-identity.js';
import { gitEnvironment, hardeningArguments } from './git.js';

// One run asks "which commit is this ref at" a few dozen times, in the user's repository and in the task
// workspace; each one-shot `git rev-parse` costs a process (10–15 ms here, most of it exec). A reader is one
// long-lived `git cat-file --batch-check` per repository: a question is a line on its stdin, the answer a
// line on its stdout. It reads refs and objects afresh for every line (a ref moved or an object fetched by
// another process meanwhile is seen), so it answers exactly what `rev-parse --verify <rev>^{commit}` would.
//
// Lifetime: started on the first question, ended after `idleMs` (5 s) without one, and never what keeps Node
// alive (its handles are unref'd while it waits). When Node dies its stdin closes and git exits. Its stdin
// is the question channel, so unlike every other git snodo runs it is not closed; nothing but revisions
// snodo resolved itself is ever written to it.

const idleMs = 5_000;
const answerTimeoutMs = 30_000;

interface Question {
  readonly count: number;
  readonly answers: string[];
  readonly resolve: (lines: string[]) => void;
  readonly reject: (error: Error) => void;
}

class CommitReader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Question[] = [];
  private buffered = '';
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
      [...hardeningArguments, 'cat-file', '--batch-check=%(objectname) %(objecttype)'],
      {
        cwd,
        env: gitEnvironment({ readOnly: true, extra: {} }),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, like every git snodo runs, so a signal to snodo's group is not shared.
        detached: true,
      },
    );
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk));
    this.child.stderr.resume();
    this.child.on('error', (error) => this.close(error));
    this.child.on('close', () => this.close(new Error('git cat-file ended')));
    this.child.stdin.on('error', (error) => this.close(error));
    this.sleep();
  }

  ask(revisions: readonly string[]): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the reader is closed'));
    return new Promise<string[]>((resolve, reject) => {
      this.waiting.push({ count: revisions.length, answers: [], resolve, reject });
      this.wake();
      this.child.stdin.write(`${revisions.join('\n')}\n`);
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

  private read(chunk: string): void {
    this.buffered += chunk;
    for (let newline = this.buffered.indexOf('\n'); newline !== -1; newline = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const question = this.waiting[0];
      if (question === undefined) {
        this.close(new Error(`git cat-file said more than it was asked: ${line}`));
        return;
      }
      question.answers.push(line);
      if (question.answers.length === question.count) {
        this.waiting.shift();
        question.resolve(question.answers);
      }
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
 * `cat-file --batch-check` answer lines for `revisions` (each `<rev>^{commit}` already), through the
 * repository's reader; `undefined` when `cwd` is not the top of a working tree (a reader is kept only for
 * those, checked against the `.git` entry's identity so a repository made again at the same path gets a
 * new one) or the reader failed — the caller then asks a one-shot git.
 */
export async function askCommitReader(
  cwd: string,
  revisions: readonly string[],
): Promise<string[] | undefined> {
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
  try {
    return await reader.ask(revisions);
  } catch {
    return undefined;
  }
}

/** Ends every reader now (tests, and an embedder that wants no child left before it exits). */
export function closeCommitReaders(): void {
  for (const reader of [...readers.values()]) reader.close();
}
