import type { RunEvent } from '@snodo/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../cli-context.js';
import { type CliFixture, createCliFixture } from '../testing/cli-fixture.js';
import { createPalette } from './palette.js';
import { createProgressRenderer } from './progress-renderer.js';

/** A terminal-like stderr that keeps what was written. */
function terminal(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, columns: 200, write: (text: string) => writes.push(text) };
  const palette = createPalette(stream, { NO_COLOR: '1' });
  const context = {
    cwd: '/',
    env: {},
    homeDirectory: '/',
    stdout: stream,
    stderr: stream,
    out: palette,
    err: palette,
    verbose: false,
  } satisfies CliContext;
  return { context, writes };
}

const jobId = 'j_test';
const stageStart = (stage: 'pre-gates' | 'execute'): RunEvent => ({ type: 'stage-start', jobId, stage });
const stageEnd = (stage: 'pre-gates' | 'execute', durationMs: number): RunEvent => ({
  type: 'stage-end',
  jobId,
  stage,
  durationMs,
});

describe('the progress line', () => {
  it("on a terminal shows the running stage's own time, not the job's (it showed the job's)", () => {
    let clock = 1_000_000;
    const { context, writes } = terminal(true);
    const progress = createProgressRenderer(context, { now: () => clock });
    progress.handle(stageStart('pre-gates'));
    clock += 40_000;
    progress.handle(stageEnd('pre-gates', 40_000));
    progress.handle(stageStart('execute'));
    clock += 3_000;
    // A printed line redraws the live line with the clock as it is now.
    progress.handle({ type: 'coder-progress', jobId, message: 'editing' } as RunEvent);
    progress.stop();
    const live = writes.filter((text) => text.includes('tokens')).at(-1) ?? '';
    expect(live).toMatch(/execute · 3\.0s \(job 43\.0s\)/);
    expect(writes.join('')).toContain('• pre-gates 40.0s');
  });
});

describe('progress piped to a file or CI', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('prints one line per finished stage with its duration (it printed none)', {
    timeout: 120_000,
  }, async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add a file', '--mock']);
    expect(run.exitCode, run.all).toBe(0);
    for (const stage of ['pre-gates', 'execute', 'post-gates']) {
      expect(run.stderr).toMatch(new RegExp(`^\\[snodo\\] stage ${stage}.* done in \\d+(\\.\\d)?m?s$`, 'm'));
    }
  });
});
