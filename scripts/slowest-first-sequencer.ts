import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the test files that took longest last time first, across every project, so the few slow ones
 * (the real coding CLIs, the sandbox and conformance suites) start at once instead of finishing last on a
 * machine with two cores. vitest's own order groups files by project name (`snodo`, the CLI, with the
 * slowest file, sorts after every `@snodo/*`) and knows durations only from a local cache a fresh CI clone
 * does not have, so the durations come from `scripts/test-durations.json`, which the summary reporter
 * rewrites when `SNODO_RECORD_TEST_DURATIONS=1`. A file not listed there is taken to be as slow as the
 * median listed one.
 */
export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readDurations(root);
    const known = Object.values(durations).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)] ?? 0;
    const duration = (file: TestSpecification): number =>
      durations[testFileKey(root, file.project.name, file.moduleId)] ?? median;
    return [...files].sort((a, b) => duration(b) - duration(a));
  }
}

/** The key a file's duration is recorded under: `<project>:<path from the repository root>`. */
export function testFileKey(root: string, project: string, moduleId: string): string {
  return `${project}:${relative(root, moduleId)}`;
}

export const durationsFile = (root: string): string => join(root, 'scripts', 'test-durations.json');

function readDurations(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile(root), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
