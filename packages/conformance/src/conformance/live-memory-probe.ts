import v8 from 'node:v8';
import vm from 'node:vm';

let collectGarbage: (() => void) | undefined;

/**
 * A function that runs a full garbage collection. NOTE: V8 only exposes `gc` to contexts created after
 * `--expose-gc` is set, so the flag is set at run time and `gc` read from a fresh context; nothing else in
 * the process changes.
 */
function garbageCollector(): () => void {
  if (collectGarbage === undefined) {
    v8.setFlagsFromString('--expose-gc');
    collectGarbage = vm.runInNewContext('gc') as () => void;
  }
  return collectGarbage;
}

/** Samples of this process's live memory, taken while a coder runs. */
export interface LiveMemoryProbe {
  /** Stops sampling and returns the largest growth of live memory seen, in bytes. */
  stop(): number;
}

/**
 * Samples live memory (V8 heap in use plus Buffer memory, each sample after a full collection, so garbage
 * a streaming adapter leaves behind does not count) every `intervalMs`, and tracks the largest rise over
 * the lowest sample so far. An adapter that keeps a CLI's whole output in memory shows a rise the size of
 * that output; one that streams it shows a few MiB.
 */
export function startLiveMemoryProbe(intervalMs = 50): LiveMemoryProbe {
  const gc = garbageCollector();
  const measure = () => {
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  let lowest = measure();
  let growth = 0;
  const timer = setInterval(() => {
    const now = measure();
    lowest = Math.min(lowest, now);
    growth = Math.max(growth, now - lowest);
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return growth;
    },
  };
}
