import { setTimeout as delay } from 'node:timers/promises';
import type { ConformanceRun } from '../conformance/conformance-run.js';
import { settle } from '../conformance/settle.js';
import { describeError, type ObligationScope } from './obligation-scope.js';

/**
 * Waits until the fake CLI has started (and spawned its grandchild, when `grandchild`), and returns when
 * that was seen. Fails the obligation when `running` settles first or nothing starts within the run limit.
 */
export async function waitForCliStart(
  scope: ObligationScope,
  run: ConformanceRun,
  running: Promise<unknown>,
  grandchild: boolean,
): Promise<number> {
  const until = Date.now() + scope.resolved.runTimeoutMs;
  while (Date.now() < until) {
    const ids = run.fakeCli?.readProcessIds();
    if (ids !== undefined && ids.cli.length > 0 && (!grandchild || ids.grandchildren.length > 0))
      return Date.now();
    const early = await settle(running, 20);
    if (early.state === 'resolved') scope.fail('doRun resolved before the CLI had even started.');
    if (early.state === 'rejected') {
      scope.fail(`doRun rejected before the CLI had started: ${describeError(early.error)}.`, early.error);
    }
    await delay(5);
  }
  return scope.fail(`the CLI did not start within ${scope.resolved.runTimeoutMs} ms.`);
}
