import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState, readJobTask } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';

// Issue 11, item 6: a provider key from the environment pasted into a task never reaches the audit log, a
// commit subject, a branch name or the job's files (config keys already did not).

let fixture: PipelineFixture;
afterEach(() => fixture.cleanup());

const environmentKey = 'sk-proj-envkey0123456789abcdefghijklmnop';

describe('task text with a provider key in it', () => {
  it('is masked wherever the task goes, and the run still lands', { timeout: 60_000 }, async () => {
    fixture = createPipelineFixture();
    const { result } = await fixture.run({
      task: `Call the API with ${environmentKey} and write the result`,
      mock: true,
      env: { ...fixture.env, OPENAI_API_KEY: environmentKey },
    });
    expect(result.outcome).toBe('merged');
    const everywhere = [
      readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8'),
      fixture.git(['log', '--all', '--format=%B']),
      fixture.git(['for-each-ref', '--format=%(refname)']),
      fixture.git(['reflog', '--all']),
      JSON.stringify(readJobState(fixture.root, result.jobId)),
      JSON.stringify(readJobTask(fixture.root, result.jobId)),
      result.task,
    ].join('\n');
    expect(everywhere).not.toContain(environmentKey);
    expect(everywhere).not.toContain(Buffer.from(environmentKey).toString('base64').slice(0, 24));
    expect(fixture.git(['log', '-1', '--format=%s', 'trunk'])).toContain('[REDACTED]');
  });
});
