import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeLockFileName } from '../isolation/index.js';
import {
  createPipelineFixture,
  mockRegistration,
  type PipelineFixture,
} from '../testing/pipeline-fixture.js';
import type { RunEvent } from './run-event.js';
import { runTask } from './run-task.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

describe('a landing that waits for another', () => {
  it('says what it waits for — the lock, its holder and its job — then lands once the lock is free', async () => {
    // Another live snodo process (this test's parent) holds the repository's merge lock for job j_other.
    const lockPath = join(fixture.root, '.git', mergeLockFileName);
    writeFileSync(
      lockPath,
      `${JSON.stringify({ pid: process.ppid, hostname: hostname(), owner: 'job j_other', token: 't', acquiredAt: new Date().toISOString() })}\n`,
    );
    const handle = runTask({
      cwd: fixture.root,
      env: fixture.env,
      actor: 'tester',
      task: 'add a file',
      mock: true,
      coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    });
    const notes: string[] = [];
    for await (const event of handle.events as AsyncIterable<RunEvent>) {
      if (event.type !== 'job-note') continue;
      notes.push(event.message);
      // The other landing finishes: its lock goes away.
      if (event.message.startsWith('Waiting for the lock') && existsSync(lockPath)) unlinkSync(lockPath);
    }
    const result = await handle.result;
    expect(notes.filter((note) => note.startsWith('Waiting for the lock'))).toEqual([
      expect.stringMatching(
        new RegExp(`landing into this repository: held by snodo process ${process.ppid} \\(job j_other\\)`),
      ),
    ]);
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
  });
});
