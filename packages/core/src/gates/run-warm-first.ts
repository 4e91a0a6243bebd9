import { runBounded } from './run-bounded.js';

/**
 * Runs `tasks` like `runBounded`, except that `tasks[warmIndex]` runs alone first and the rest start only
 * once it has settled. The judges of a phase share one prompt prefix: the first call writes it to the
 * provider's cache, and the others, started after it, read it instead of each paying to write it again
 * (four judges started at once would all miss). Without a `warmIndex`, or with fewer than two tasks, it is
 * `runBounded`. Results come back in the order of `tasks`.
 */
export async function runWarmFirst<T>(
  tasks: readonly (() => Promise<T>)[],
  warmIndex: number | undefined,
  limit: number,
  signal?: AbortSignal,
): Promise<(T | undefined)[]> {
  const warm = warmIndex === undefined ? undefined : tasks[warmIndex];
  if (warm === undefined || tasks.length < 2) return runBounded(tasks, limit, signal);
  const [warmResult] = await runBounded([warm], 1, signal);
  const restIndexes = tasks.flatMap((_, index) => (index === warmIndex ? [] : [index]));
  const rest = await runBounded(
    restIndexes.map((index) => tasks[index] as () => Promise<T>),
    limit,
    signal,
  );
  const results: (T | undefined)[] = new Array(tasks.length).fill(undefined);
  results[warmIndex as number] = warmResult;
  restIndexes.forEach((index, position) => {
    results[index] = rest[position];
  });
  return results;
}
