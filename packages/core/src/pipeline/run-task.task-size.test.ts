import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TASK_BYTES } from '../project/task-too-large-error.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

function jobsCreated(): string[] {
  const jobs = join(fixture.root, '.snodo', 'jobs');
  return existsSync(jobs) ? readdirSync(jobs) : [];
}

describe('runTask and the size of the task', () => {
  it('refuses a task above 256 KiB before a job exists, counting bytes, not characters', async () => {
    // Regression (issue 14): a 1 MB task was taken, and its post-gates ran for minutes.
    const before = fixture.git(['rev-parse', 'trunk']);
    const task = 'é'.repeat(MAX_TASK_BYTES / 2 + 1);
    await expect(fixture.run({ task, mock: true })).rejects.toMatchObject({
      code: 'TASK_TOO_LARGE',
      message: expect.stringContaining('The task is 257 KiB, above the 256 KiB a task may be'),
    });
    expect(jobsCreated()).toEqual([]);
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(before);
  });

  it('runs a task of exactly the limit to the end, its gates and all', async () => {
    // One line of 256 KiB: the mock coder writes the task into its file, so the post-gates scan it.
    const task = `Add a note. ${'a'.repeat(MAX_TASK_BYTES - 'Add a note. '.length)}`;
    const { result } = await fixture.run({ task, mock: true });
    expect(result).toMatchObject({ status: 'done' });
    const notes = fixture.git(['show', '--name-only', '--format=', 'trunk']).split('\n');
    const note = notes.find((path) => path.startsWith('snodo-mock/')) ?? '';
    expect(readFileSync(join(fixture.root, note), 'utf8')).toContain(task);
  });
});
