/**
 * Runs `tasks` with at most `limit` in flight, starting them in order, and resolves with their results in
 * the same order (not completion order). Once `signal` is aborted no further task starts; the ones in
 * flight are left to finish (they watch the signal themselves). A task that rejects rejects the whole run
 * after the in-flight ones settle.
 */
export async function runBounded<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
  signal?: AbortSignal,
): Promise<(T | undefined)[]> {
  const results: (T | undefined)[] = new Array(tasks.length).fill(undefined);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < tasks.length && !signal?.aborted && failure === undefined) {
      const index = next;
      next += 1;
      const task = tasks[index];
      if (task === undefined) continue;
      try {
        results[index] = await task();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const bounded = Number.isFinite(limit) ? Math.floor(limit) : 1;
  const workers = Math.max(1, Math.min(bounded, tasks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure) throw failure.error;
  return results;
}
