import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

describe('snodo audit show', () => {
  let fixture: CliFixture;
  let lines: string[];
  beforeAll(async () => {
    fixture = createCliFixture();
    // mock/warn: every judge warns, `unanimous` escalates, so the log holds verdicts and a halt.
    const run = await fixture.snodo(['run', 'Add a reviewed file', '--mock', '-m', 'mock/warn']);
    expect(run.exitCode, run.all).toBe(1);
    const landed = await fixture.snodo(['run', 'Add a file', '--mock']);
    expect(landed.exitCode, landed.all).toBe(0);
    const show = await snodoInProcess(fixture, ['audit', 'show']);
    expect(show.exitCode, show.all).toBe(0);
    lines = show.stdout.split('\n');
  }, 120_000);
  afterAll(() => fixture.cleanup());

  const line = (type: string, includes = '') =>
    lines.find((text) => text.includes(` ${type} `) && text.includes(includes)) ?? '';

  it('shows a verdict’s gate and severity (the first five fields alphabetically never did)', () => {
    const verdict = line('gate-verdict', 'gate=task-review');
    expect(verdict).toMatch(/gate=task-review severity=warn phase=pre_execute justification="?\S/);
  });

  it('shows how a job ended, and its coder’s exit, duration and files', () => {
    expect(line('job-end', 'halted')).toMatch(/status=halted outcome=\S+/);
    expect(line('job-end', 'done')).toMatch(/status=done outcome=merged .*duration=\d+\.\ds/);
    expect(line('coder-end')).toMatch(/attempt=1 status=changed .*duration=\d+\.\ds files=\S+/);
    expect(line('policy-decide')).toMatch(/action=\S+/);
    expect(line('coder-resolve')).toMatch(/coder=mock source=mock-flag/);
  });

  it('quotes free text, so one event stays one line', () => {
    expect(line('job-start')).toContain('task="Add a reviewed file"');
  });
});
