import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';

// Issue 13: the workspace is made only once the pre-execute gates pass, so a halt before execution leaves
// no workspace and no branch; approving such a job makes its workspace then and goes on exactly once.

/** A pre-execute judge on the run's model, a post-execute judge (own model unless `postModel` is unset). */
function protocol(options: { postModel?: string; preCommand?: string } = {}): string {
  const post = options.postModel === undefined ? '' : `\n    model: ${options.postModel}`;
  const pre =
    options.preCommand === undefined
      ? ''
      : `\n  - validator_id: lint\n    validator_type: quality\n    evaluation_phase: pre_execute\n    tooling:\n      test_command: ${options.preCommand}`;
  return `protocol_id: pre
name: Pre-execute
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, security${options.preCommand === undefined ? '' : ', lint'}]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute${post}
    criteria: [No credentials are added.]${pre}
disagreement_policy: unanimous
execution:
  max_fix_attempts: 2
`;
}

function leftovers(fixture: CliFixture) {
  const worktrees = join(fixture.snodoHome, 'worktrees');
  return {
    branches: fixture.git(['branch', '--list', 'snodo/*']),
    // Job workspaces live in `<worktrees>/<project>/<job id>`; the project directory may stay.
    workspaces: existsSync(worktrees)
      ? readdirSync(worktrees, { recursive: true }).filter((entry) =>
          /(^|\/)j_[a-z0-9]+$/.test(String(entry)),
        ).length
      : 0,
  };
}

function coderStarts(fixture: CliFixture): number {
  const log = readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8');
  return log.split('\n').filter((line) => line.includes('"type":"coder-start"')).length;
}

describe('snodo run: a halt before execution leaves nothing behind', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('a pre-execute escalation leaves no workspace and no branch; approving it makes them and lands once', async () => {
    fixture = createCliFixture({ protocol: protocol({ postModel: 'mock/pass' }) });
    const run = await fixture.snodo(['run', 'Add a reviewed file', '--mock', '-m', 'mock/warn', '--json']);
    expect(run.exitCode, run.all).toBe(1);
    const halted = runResultJsonSchema.parse(JSON.parse(run.stdout));
    expect(halted.outcome).toBe('escalated');
    expect(halted.summary).toContain('before the coder ran');
    expect(leftovers(fixture)).toEqual({ branches: '', workspaces: 0 });

    const approve = await fixture.snodo(['task', 'approve', halted.jobId, '--reason', 'fine']);
    expect(approve.exitCode, approve.all).toBe(0);
    expect(approve.stdout).toContain(`snodo ${halted.jobId}: merged into main`);
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'main'])).toContain(`snodo-mock/${halted.jobId}.md`);
    expect(coderStarts(fixture)).toBe(1);
  });

  it('approving a pre-execute escalation runs the coder once even when the post-execute gates escalate', async () => {
    // Every judge answers warn: before and after the coder ran. The human's approval of the pre-execute
    // phase is not asked again through a second fix loop; the post-execute escalation is a new decision.
    fixture = createCliFixture({ protocol: protocol() });
    const run = await fixture.snodo(['run', 'Add a reviewed file', '--mock', '-m', 'mock/warn', '--json']);
    expect(run.exitCode, run.all).toBe(1);
    const halted = runResultJsonSchema.parse(JSON.parse(run.stdout));

    const approve = await fixture.snodo(['task', 'approve', halted.jobId, '--reason', 'go on', '--json']);
    expect(approve.exitCode, approve.all).toBe(1);
    const again = runResultJsonSchema.parse(JSON.parse(approve.stdout));
    expect(again.outcome).toBe('escalated');
    expect(again.summary).toContain('after the coder ran');
    expect(coderStarts(fixture)).toBe(1);

    const second = await fixture.snodo(['task', 'approve', halted.jobId, '--reason', 'the change is fine']);
    expect(second.exitCode, second.all).toBe(0);
    expect(coderStarts(fixture)).toBe(1);
  });

  it('a pre-execute command gate gets a checkout, and its halt removes the workspace and the branch', async () => {
    fixture = createCliFixture({
      protocol: protocol({ postModel: 'mock/pass', preCommand: '[node, -e, "process.exit(1)"]' }),
    });
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'mock/pass', '--json']);
    expect(run.exitCode, run.all).toBe(1);
    const halted = runResultJsonSchema.parse(JSON.parse(run.stdout));
    expect(halted.outcome).toBe('blocker');
    expect(leftovers(fixture)).toEqual({ branches: '', workspaces: 0 });
    // The gate did run in a checkout of its own (the audit log records the workspace it got).
    expect(readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')).toContain(
      '"type":"workspace-create"',
    );
  });
});
