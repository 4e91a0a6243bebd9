import { runGit } from '@snodo/coder-sdk/git';

/**
 * git in a worker's (or submitter's) clone, through snodo's one git runner: asynchronous, so a long fetch
 * never blocks the event loop that renews BullMQ's job locks.
 */
export async function gitIn(cwd: string, args: readonly string[]): Promise<string> {
  const result = await runGit(args, { cwd });
  return result.stdout.trim();
}

/** Like `gitIn`, but a non-zero exit is an answer (`undefined`), not an error. */
export async function gitProbe(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const result = await runGit(args, { cwd, allowedExitCodes: 'any', readOnly: true });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/**
 * Runs ref-updating git work of one clone one piece at a time: two jobs of one worker fetching and pushing in
 * the same clone at once would race on its refs and packed-refs lock.
 */
export class CloneLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  /**
   * Inside `run`: lets the clone's other git work go on while `work` only reads the clone (a landing's
   * re-check in a workspace of its own), then takes the lock back before the caller touches refs again.
   */
  async released<T>(work: () => Promise<T>): Promise<T> {
    this.#release();
    try {
      return await work();
    } finally {
      await this.#acquire();
    }
  }

  #acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    // The lock passes straight to the next waiter, so nobody can slip in between.
    if (next === undefined) this.#held = false;
    else next();
  }
}
