import { describe, expect, it } from 'vitest';
import { submissionJobId } from './submission-id.js';

const identity = {
  task: 'Add rate limiting',
  base: 'main',
  baseCommit: 'a'.repeat(40),
  protocolBlob: 'b'.repeat(40),
  options: { coder: 'claude-code', mock: false },
};

describe('submissionJobId', () => {
  it('is the same for the same submission, so a retried submit adds no second job', () => {
    expect(submissionJobId(identity)).toBe(
      submissionJobId({ ...identity, options: { mock: false, coder: 'claude-code' } }),
    );
    expect(submissionJobId(identity)).toMatch(/^q_[0-9a-f]{16}$/);
  });

  it('differs when the task, the base commit, the protocol or an option differs', () => {
    const id = submissionJobId(identity);
    expect(submissionJobId({ ...identity, task: 'Add rate limiting!' })).not.toBe(id);
    expect(submissionJobId({ ...identity, baseCommit: 'c'.repeat(40) })).not.toBe(id);
    expect(submissionJobId({ ...identity, protocolBlob: 'c'.repeat(40) })).not.toBe(id);
    expect(submissionJobId({ ...identity, options: { coder: 'codex', mock: false } })).not.toBe(id);
  });

  it("takes the user's --id, and refuses one BullMQ or git cannot carry, naming the rule", () => {
    expect(submissionJobId(identity, 'release-notes.1')).toBe('release-notes.1');
    // `x.lock` once passed and ran the task, then failed to push refs/snodo/jobs/x.lock (git refuses it).
    for (const bad of ['12', 'a:b', 'a/b', 'a..b', 'x'.repeat(65), '-a', 'x.lock', 'x.']) {
      expect(() => submissionJobId(identity, bad)).toThrow(/is not usable.*refs\/snodo\/jobs/);
    }
  });
});
