import { describe, it } from 'vitest';
import { createExampleCoder } from '../example/example-coder.js';
import {
  BadUsageCoder,
  EmptyCommitCoder,
  NoCommitCoder,
  NoSquashCoder,
  NoTranscriptCoder,
  SuccessOnFailureCoder,
  SwallowsMutationCoder,
  SwallowsTamperCoder,
  TrackedInstructionsCoder,
} from './broken-result-coders.js';
import { expectConformance } from './expect-conformance.js';

describe('adapters that mishandle the CLI’s work fail the obligation they break', () => {
  it('one-commit-equals-change: success reported without a commit', async () => {
    // Leaving the change uncommitted also leaves the CLI-commit scenario without its commit, and the
    // worktree dirty, which the instructions obligation checks: three failures from one mistake.
    await expectConformance((options) => new NoCommitCoder(options), {
      fails: {
        'one-commit-equals-change': 'the branch gained 0 commits',
        'cli-commits-squashed': 'the branch gained 0 commits',
        'instructions-file-present-and-excluded': 'git status is not clean',
      },
      passes: ['no-changes-no-commit', 'attribution-scrubbed'],
    });
  }, 30_000);

  it('cli-commits-squashed: the CLI’s commits kept, the rest committed on top', async () => {
    // Keeping the CLI's commit keeps its attribution lines on the branch as well.
    await expectConformance((options) => new NoSquashCoder(options), {
      fails: {
        'cli-commits-squashed': "the CLI's own commits are still on the branch",
        'attribution-scrubbed': "snodo's commit still says",
      },
      passes: ['one-commit-equals-change', 'snodo-mutation-blocked'],
    });
  }, 30_000);

  it('no-changes-no-commit: an empty commit when nothing changed', async () => {
    await expectConformance((options) => new EmptyCommitCoder(options), {
      fails: { 'no-changes-no-commit': 'the status is "changed"' },
      passes: ['one-commit-equals-change'],
    });
  }, 30_000);

  it('snodo-mutation-blocked: the mutation error swallowed', async () => {
    await expectConformance((options) => new SwallowsMutationCoder(options), {
      fails: { 'snodo-mutation-blocked': 'expected SNODO_MUTATION_BLOCKED, but doRun resolved' },
      passes: ['git-metadata-tamper-blocked'],
    });
  }, 30_000);

  it('git-metadata-tamper-blocked: the tamper error swallowed', async () => {
    await expectConformance((options) => new SwallowsTamperCoder(options), {
      fails: { 'git-metadata-tamper-blocked': 'expected GIT_METADATA_TAMPERED, but doRun resolved' },
      passes: ['snodo-mutation-blocked'],
    });
  }, 30_000);

  it('nonzero-exit-coder-failed: exit 3 reported as success', async () => {
    await expectConformance((options) => new SuccessOnFailureCoder(options), {
      fails: { 'nonzero-exit-coder-failed': 'expected CODER_FAILED, but doRun resolved' },
      passes: ['one-commit-equals-change'],
    });
  }, 30_000);

  it('transcript-exists: the transcript thrown away', async () => {
    // Without a transcript there is nothing to hold to the cap either.
    await expectConformance((options) => new NoTranscriptCoder(options), {
      fails: {
        'transcript-exists': 'result.transcriptPath is missing',
        'output-capped': 'there is no transcript',
      },
      passes: ['one-commit-equals-change'],
    });
  }, 30_000);

  it('output-capped: no cap on the transcript', async () => {
    await expectConformance(
      (options) => createExampleCoder({ ...options, transcriptCapBytes: Number.POSITIVE_INFINITY }),
      {
        fails: { 'output-capped': 'the transcript is 524' },
        passes: ['transcript-exists'],
      },
    );
  }, 30_000);

  it('instructions-file-present-and-excluded: instructions written into a tracked file', async () => {
    await expectConformance((options) => new TrackedInstructionsCoder(options), {
      fails: { 'instructions-file-present-and-excluded': 'README.md, a file the repository tracks' },
      passes: ['one-commit-equals-change', 'no-changes-no-commit'],
    });
  }, 30_000);

  it('attribution-scrubbed: attribution kept', async () => {
    await expectConformance((options) => createExampleCoder({ ...options, keepAttribution: true }), {
      fails: { 'attribution-scrubbed': "snodo's commit still says" },
      passes: ['cli-commits-squashed'],
    });
  }, 30_000);

  it('usage-shape-valid: negative and fractional token counts', async () => {
    await expectConformance((options) => new BadUsageCoder(options), {
      fails: { 'usage-shape-valid': 'result.usage.inputTokens is -5' },
      passes: ['transcript-exists'],
    });
  }, 30_000);
});
