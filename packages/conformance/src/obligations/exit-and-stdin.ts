import { randomBytes } from 'node:crypto';
import { settle } from '../conformance/settle.js';
import { defineObligation } from './define-obligation.js';
import { describeError, errorCode, type ObligationScope } from './obligation-scope.js';

/** A non-zero exit is CODER_FAILED with the stderr tail, and nothing is committed. */
export const nonzeroExitCoderFailed = defineObligation(
  'nonzero-exit-coder-failed',
  async (scope: ObligationScope) => {
    const token = `conformance-failure-${randomBytes(6).toString('hex')}`;
    const scenario = {
      steps: [
        { writeFile: { path: 'src/app.txt', content: 'half-done edit\n' } },
        { stdout: '{"type":"result","is_error":true}\n' },
        { stderr: `${token}: the model refused the request\n` },
      ],
      exitCode: 3,
    };
    await scope.withRun({ scenario }, async (run) => {
      const outcome = await settle(scope.doRun(run));
      const error = scope.expectCode(outcome, 'CODER_FAILED', 'a CLI that exits 3');
      const { stderrTail, exitCode, message } = error as {
        stderrTail?: unknown;
        exitCode?: unknown;
        message?: unknown;
      };
      scope.check(
        (typeof stderrTail === 'string' && stderrTail.includes(token)) ||
          (typeof message === 'string' && message.includes(token)),
        'the CODER_FAILED error carries neither in stderrTail nor in its message what the CLI printed on stderr.',
      );
      scope.check(
        exitCode === undefined || exitCode === 3,
        `the CODER_FAILED error says exit code ${String(exitCode)}; the CLI exited 3.`,
      );
      scope.check(run.head() === run.startCommit, 'a failed run committed its half-done edit.');
    });
  },
);

/** A CLI that reads stdin to end-of-file finishes: stdin is closed, never an open pipe. */
export const stdinNeverBlocks = defineObligation('stdin-never-blocks', async (scope: ObligationScope) => {
  const { stdinTimeoutMs, killGraceMs, marginMs } = scope.resolved;
  const scenario = {
    readStdin: true,
    steps: [
      { writeFile: { path: 'src/app.txt', content: 'written after stdin ended\n' } },
      ...scope.finalOutput(),
    ],
  };
  await scope.withRun({ scenario }, async (run) => {
    const outcome = await settle(
      scope.doRun(run, { timeoutMs: stdinTimeoutMs }),
      stdinTimeoutMs + killGraceMs + marginMs,
    );
    if (outcome.state === 'resolved') {
      scope.check(
        run.fakeCli?.readRecord()?.finished === true,
        'doRun resolved but the CLI never got past reading stdin.',
      );
      return;
    }
    if (outcome.state === 'pending' || errorCode(outcome.error) === 'CODER_TIMEOUT') {
      scope.fail(
        `the CLI waited for end-of-file on stdin until ${outcome.state === 'pending' ? 'the suite gave up' : `the ${stdinTimeoutMs} ms limit`}: stdin was left open.`,
      );
    }
    scope.fail(`a CLI that reads stdin failed: ${describeError(outcome.error)}.`, outcome.error);
  });
});
