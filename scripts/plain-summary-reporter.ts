import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { durationsFile, testFileKey } from './slowest-first-sequencer.js';

/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary (some CI
 * harnesses read only that shape; vitest's table is for people), and before it the ten slowest files, so a
 * CI log says where the time went. With `SNODO_RECORD_TEST_DURATIONS=1` it also rewrites
 * `scripts/test-durations.json`, the order `slowest-first-sequencer.ts` starts files in.
 */
export default class PlainSummaryReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const durations: Array<[string, number]> = [];
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      const key = testFileKey(this.root, testModule.project.name, testModule.moduleId);
      const diagnostic = testModule.diagnostic();
      const wall =
        diagnostic.environmentSetupDuration +
        diagnostic.prepareDuration +
        diagnostic.collectDuration +
        diagnostic.setupDuration +
        diagnostic.duration;
      durations.push([key, Math.round(wall)]);
    }
    durations.sort((a, b) => b[1] - a[1]);
    const slowest = durations
      .slice(0, 10)
      .map(([key, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${key}`);
    process.stdout.write(`\nslowest test files:\n${slowest.join('\n')}\n`);
    if (process.env.SNODO_RECORD_TEST_DURATIONS === '1') {
      writeFileSync(durationsFile(this.root), `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
