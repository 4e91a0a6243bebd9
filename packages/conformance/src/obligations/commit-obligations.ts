import type { ConformanceRun } from '../conformance/conformance-run.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

/** The commits on the task branch since the start commit, newest first. */
function commitsSinceStart(run: ConformanceRun): string[] {
  return run
    .git(['rev-list', `${run.startCommit}..HEAD`])
    .split('\n')
    .filter((line) => line !== '');
}

/** `path` → status letter of the change between the start commit and HEAD. */
function changesSinceStart(run: ConformanceRun): Map<string, string> {
  const changes = new Map<string, string>();
  for (const line of run
    .git(['diff', '--name-status', '--no-renames', run.startCommit, 'HEAD'])
    .split('\n')) {
    const [status, filePath] = line.split('\t');
    if (status !== undefined && filePath !== undefined) changes.set(filePath, status);
  }
  return changes;
}

/** Checks the branch holds exactly the expected change, as one commit, reported by the result. */
function checkOneCommit(
  scope: ObligationScope,
  run: ConformanceRun,
  result: { status: string; commit?: string; changedFiles: readonly string[] },
  expected: ReadonlyMap<string, string>,
): void {
  const commits = commitsSinceStart(run);
  scope.check(
    commits.length === 1,
    `the branch gained ${commits.length} commits on the start commit; exactly one is expected.`,
  );
  scope.check(result.status === 'changed', `the result's status is "${result.status}", not "changed".`);
  scope.check(
    result.commit === run.head(),
    `result.commit is ${result.commit ?? 'missing'}, but the branch points at ${run.head()}.`,
  );
  const actual = changesSinceStart(run);
  const describe = (changes: ReadonlyMap<string, string>) =>
    [...changes].map(([filePath, status]) => `${status} ${filePath}`).join(', ') || 'nothing';
  const same =
    actual.size === expected.size && [...expected].every(([key, value]) => actual.get(key) === value);
  scope.check(same, `the commit holds ${describe(actual)}; the CLI changed ${describe(expected)}.`);
  const sorted = [...expected.keys()].sort();
  scope.check(
    JSON.stringify(result.changedFiles) === JSON.stringify(sorted),
    `result.changedFiles is ${JSON.stringify(result.changedFiles)}, expected ${JSON.stringify(sorted)} (sorted).`,
  );
}

/** The CLI's edits become exactly one commit with snodo's message. */
export const oneCommitEqualsChange = defineObligation(
  'one-commit-equals-change',
  async (scope: ObligationScope) => {
    const steps = [
      { writeFile: { path: 'src/app.txt', content: 'first line\nsecond line from the CLI\n' } },
      { writeFile: { path: 'src/feature/new-file.txt', content: 'a new file\n' } },
      { deleteFile: { path: 'src/obsolete.txt' } },
    ];
    await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
      const result = await scope.expectSuccess(scope.doRun(run), 'a run that edits three files');
      checkOneCommit(
        scope,
        run,
        result,
        new Map([
          ['src/app.txt', 'M'],
          ['src/feature/new-file.txt', 'A'],
          ['src/obsolete.txt', 'D'],
        ]),
      );
      scope.check(
        run.git(['show', 'HEAD:src/app.txt']) === 'first line\nsecond line from the CLI\n',
        'the committed src/app.txt is not what the CLI wrote.',
      );
      const message = run.git(['log', '-1', '--format=%B']);
      scope.check(
        message.startsWith(`snodo(${run.jobId}): Conformance check`),
        `the commit subject is "${message.split('\n')[0]}", not "snodo(${run.jobId}): <first line of the task>".`,
      );
      scope.check(
        message.includes(`Snodo-Job: ${run.jobId}`),
        `the commit message has no "Snodo-Job: ${run.jobId}" trailer.`,
      );
    });
  },
);

/** Commits the CLI made itself are squashed into the one commit. */
export const cliCommitsSquashed = defineObligation('cli-commits-squashed', async (scope: ObligationScope) => {
  const steps = [
    { writeFile: { path: 'src/first.txt', content: 'first\n' } },
    { commit: { message: 'cli: first commit' } },
    { writeFile: { path: 'src/second.txt', content: 'second\n' } },
    { commit: { message: 'cli: second commit' } },
  ];
  await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
    const result = await scope.expectSuccess(scope.doRun(run), 'a run where the CLI commits twice');
    const cliCommits = run
      .git(['log', '--format=%H %s', `${run.startCommit}..HEAD`])
      .split('\n')
      .filter((line) => line.includes(' cli: '));
    scope.check(
      cliCommits.length === 0,
      `the CLI's own commits are still on the branch: ${cliCommits.join('; ')}.`,
    );
    checkOneCommit(
      scope,
      run,
      result,
      new Map([
        ['src/first.txt', 'A'],
        ['src/second.txt', 'A'],
      ]),
    );
    const author = run.git(['log', '-1', '--format=%ae']).trim();
    scope.check(
      author !== 'fake-cli@conformance.invalid',
      "the one commit carries the CLI's identity as author.",
    );
  });
});

/** Nothing changed → `no-changes` and no commit. */
export const noChangesNoCommit = defineObligation('no-changes-no-commit', async (scope: ObligationScope) => {
  // An ignored file is not a change: snodo stages everything except ignored files.
  const steps = [{ writeFile: { path: 'node_modules/cache.txt', content: 'ignored\n' } }];
  await scope.withRun({ scenario: { steps: [...steps, ...scope.finalOutput()] } }, async (run) => {
    const result = await scope.expectSuccess(scope.doRun(run), 'a run that changes nothing');
    scope.check(result.status === 'no-changes', `the status is "${result.status}", not "no-changes".`);
    scope.check(result.commit === undefined, `result.commit is ${result.commit} although nothing changed.`);
    scope.check(
      run.head() === run.startCommit,
      `the branch moved to ${run.head()} although nothing changed (an empty commit?).`,
    );
    scope.check(
      result.changedFiles.length === 0,
      `result.changedFiles is ${JSON.stringify(result.changedFiles)} although nothing changed.`,
    );
  });
});
