import type { CoderV1Result } from '@snodo/coder-sdk';
import { isProcessRunning, processesStillRunning } from '../conformance/process-liveness.js';
import { type Settled, settle } from '../conformance/settle.js';
import { compareTrees, snapshotTree } from '../conformance/tree-snapshot.js';
import { defineObligation } from './define-obligation.js';
import { describeError, errorCode, type ObligationScope } from './obligation-scope.js';
import { waitForCliStart } from './wait-for-cli-start.js';

/** Fails unless the processes the fake CLI recorded are all gone (waiting up to the margin). */
async function checkProcessesGone(
  scope: ObligationScope,
  pids: readonly number[],
  when: string,
): Promise<void> {
  const running = await processesStillRunning(pids, scope.resolved.marginMs);
  scope.check(
    running.length === 0,
    `${running.length} process(es) of the coder still run ${when} (pids ${running.join(', ')}): ` +
      'its process group was not killed, so a grandchild (a dev server, a watcher) outlives the run.',
  );
}

/** An abort rejects with CODER_ABORTED, or rethrows the signal's own reason (core owns the signal). */
function checkAborted(
  scope: ObligationScope,
  outcome: Settled<CoderV1Result>,
  reason: unknown,
  what: string,
): void {
  if (
    outcome.state === 'rejected' &&
    (outcome.error === reason || errorCode(outcome.error) === 'CODER_ABORTED')
  ) {
    return;
  }
  if (outcome.state === 'pending') {
    scope.fail(`${what}: doRun was still running ${outcome.afterMs} ms after the abort.`);
  }
  if (outcome.state === 'resolved') {
    scope.fail(
      `${what}: doRun resolved with status "${outcome.value.status}" instead of rejecting as aborted.`,
    );
  }
  scope.fail(`${what}: expected CODER_ABORTED, got ${describeError(outcome.error)}.`, outcome.error);
}

/** A hung CLI that ignores SIGTERM is killed with its whole group: CODER_TIMEOUT, no orphans. */
export const hangKilledWithGroup = defineObligation(
  'hang-killed-with-group',
  async (scope: ObligationScope) => {
    const { hangTimeoutMs, killGraceMs, marginMs } = scope.resolved;
    await scope.withRun(
      { scenario: { ignoreSigterm: true, spawnGrandchild: true, hang: true } },
      async (run) => {
        const running = scope.doRun(run, { timeoutMs: hangTimeoutMs });
        const startedAt = await waitForCliStart(scope, run, running, true);
        const limit = hangTimeoutMs + killGraceMs + marginMs;
        const outcome = await settle(running, Math.max(limit - (Date.now() - startedAt), 1));
        const pids = run.processIds();
        if (outcome.state === 'pending') {
          const alive = pids.filter(isProcessRunning);
          scope.fail(
            `doRun was still running ${limit} ms after the CLI started (timeout ${hangTimeoutMs} ms + grace ` +
              `${killGraceMs} ms + margin ${marginMs} ms)` +
              (alive.length > 0 ? `, with pids ${alive.join(', ')} alive` : '') +
              '. Is SIGKILL sent after the grace, to the whole group?',
          );
        }
        scope.expectCode(
          outcome,
          'CODER_TIMEOUT',
          `a CLI that hangs and ignores SIGTERM, with timeoutMs ${hangTimeoutMs}`,
        );
        await checkProcessesGone(scope, pids, 'after the timeout');
      },
    );
  },
);

/** An abort before or during the run rejects promptly and leaves nothing running. */
export const abortKillsPromptly = defineObligation('abort-kills-promptly', async (scope: ObligationScope) => {
  const { killGraceMs, marginMs } = scope.resolved;
  const inPlace = scope.adapter.kind === 'in-place';

  await scope.withRun(
    {
      scenario: inPlace ? { steps: [{ writeFile: { path: 'src/app.txt', content: 'x\n' } }] } : undefined,
      configureBinary: inPlace,
    },
    async (run) => {
      const treeBefore = snapshotTree(run.workspace);
      const reason = new Error('aborted by the conformance suite before the run');
      run.abortController.abort(reason);
      const outcome = await settle(scope.doRun(run), marginMs);
      checkAborted(scope, outcome, reason, 'doRun with an already aborted signal');
      scope.check(
        run.fakeCli?.readRecord() === undefined,
        'the CLI was started although the signal was already aborted.',
      );
      const changes = compareTrees(treeBefore, snapshotTree(run.workspace));
      scope.check(
        changes.length === 0,
        `the worktree changed although the run was aborted first: ${changes.join(', ')}.`,
      );
      scope.check(run.head() === run.startCommit, 'the branch moved although the run was aborted first.');
    },
  );
  if (!inPlace) return;

  await scope.withRun({ scenario: { spawnGrandchild: true, hang: true } }, async (run) => {
    const running = scope.doRun(run);
    await waitForCliStart(scope, run, running, true);
    const reason = new Error('aborted by the conformance suite during the run');
    run.abortController.abort(reason);
    const outcome = await settle(running, killGraceMs + marginMs);
    checkAborted(scope, outcome, reason, 'an abort while the CLI runs');
    await checkProcessesGone(scope, run.processIds(), 'after the abort');
  });
});
