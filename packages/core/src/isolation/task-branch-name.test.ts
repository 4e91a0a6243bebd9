import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useIsolatedGitConfiguration } from '../git/test-repository.js';
import { landingMessage } from './landing-message.js';
import { projectDirectoryName } from './project-directory-name.js';
import { taskBranchName, taskSlug } from './task-branch-name.js';
import { parseWorkspaceLockReason, workspaceLockReason } from './workspace-lock-reason.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());

describe('taskSlug', () => {
  it('keeps the first words, lowercased, within 40 characters at a word boundary', () => {
    expect(taskSlug('Add rate limiting to the login route')).toBe('add-rate-limiting-to-the-login-route');
    expect(taskSlug('Refactor the authentication middleware so that every handler shares it')).toBe(
      'refactor-the-authentication-middleware',
    );
    expect(taskSlug('Café naïve Ünïcödé')).toBe('cafe-naive-unicode');
  });

  it('reduces hostile text to [a-z0-9-] and falls back to "task"', () => {
    const slug = taskSlug(
      '$(touch /tmp/pwn); rm -rf ~ --dangerously-skip-permissions\nFake: trailer \u202E 🚀',
    );
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toBe('touch-tmp-pwn-rm-rf-dangerously-skip');
    expect(taskSlug('🚀 ~~~ \u202E')).toBe('task');
    expect(taskSlug('x'.repeat(100))).toBe('x'.repeat(40));
  });
});

describe('taskBranchName', () => {
  it('builds snodo/<job>-<slug>, and refuses a job id that is not plain', () => {
    expect(taskBranchName({ jobId: 'j_abc123', task: 'Fix the .lock..bug' })).toBe(
      'snodo/j_abc123-fix-the-lock-bug',
    );
    let error: { code?: string } | undefined;
    try {
      taskBranchName({ jobId: '../x', task: 't' });
    } catch (caught) {
      error = caught as { code?: string };
    }
    expect(error?.code).toBe('ISOLATION_FAILED');
  });
});

describe('taskBranchName without git', () => {
  it('only ever builds names git itself accepts as branches', () => {
    const tasks = [
      'Fix the .lock..bug',
      'refs/heads/main',
      '@{-1} ~^:?*[\\ HEAD',
      '   ',
      '-leading dash-',
      'a.lock',
      'über café naïve',
      '😀 emoji only 😀',
      'x'.repeat(300),
      'word-'.repeat(20),
      '../../etc/passwd',
      'tab\tnew\nline',
    ];
    const jobIds = ['j_abc123', 'A', 'j-', 'j__x-', '9'.repeat(64)];
    for (const jobId of jobIds) {
      for (const task of tasks) {
        const branch = taskBranchName({ jobId, task });
        const checked = execFileSync('git', ['check-ref-format', '--branch', branch], { encoding: 'utf8' });
        expect(checked.trim()).toBe(branch);
      }
    }
  });
});

describe('small pure helpers', () => {
  it('names project directories by readable slug plus a hash of the path', () => {
    const one = projectDirectoryName('/home/a/My Project/.git');
    const two = projectDirectoryName('/home/b/My Project/.git');
    expect(one).toMatch(/^my-project-[0-9a-f]{10}$/);
    expect(two).toMatch(/^my-project-[0-9a-f]{10}$/);
    expect(one).not.toBe(two);
    expect(projectDirectoryName('/srv/repo.git')).toMatch(/^repo-[0-9a-f]{10}$/);
  });

  it('round-trips snodo lock reasons and rejects foreign ones', () => {
    expect(parseWorkspaceLockReason(workspaceLockReason('j_1', 42))).toEqual({ jobId: 'j_1', pid: 42 });
    expect(parseWorkspaceLockReason('on a USB disk')).toBeUndefined();
    expect(parseWorkspaceLockReason(undefined)).toBeUndefined();
  });

  it('appends trailers on their own lines and never lets a value forge another trailer', () => {
    expect(landingMessage('Merge it\n\n', { 'Snodo-Job': 'j_1', 'Snodo-Checkpoint': 'abc\nEvil: yes' })).toBe(
      'Merge it\n\nSnodo-Job: j_1\nSnodo-Checkpoint: abc Evil: yes\n',
    );
    expect(() => landingMessage('m', { 'bad key': 'v' })).toThrow(/trailer key/);
  });
});
