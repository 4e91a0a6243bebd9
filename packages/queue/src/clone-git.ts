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
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}
