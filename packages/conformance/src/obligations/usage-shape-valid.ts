import type { CoderV1Usage } from '@snodo/coder-sdk';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

const countFields = ['inputTokens', 'outputTokens', 'cachedInputTokens'] as const;

function checkUsage(scope: ObligationScope, usage: CoderV1Usage, where: string): void {
  scope.check(usage !== null && typeof usage === 'object', `${where} is not an object.`);
  for (const field of countFields) {
    const value = usage[field];
    scope.check(
      Number.isSafeInteger(value) && value >= 0,
      `${where}.${field} is ${JSON.stringify(value)}; token counts are non-negative integers.`,
    );
  }
  scope.check(
    usage.costUsd === null ||
      (typeof usage.costUsd === 'number' && Number.isFinite(usage.costUsd) && usage.costUsd >= 0),
    `${where}.costUsd is ${JSON.stringify(usage.costUsd)}; it is a non-negative number, or null when unknown.`,
  );
  scope.check(
    usage.source === 'reported' || usage.source === 'estimated',
    `${where}.source is ${JSON.stringify(usage.source)}, not "reported" or "estimated".`,
  );
  scope.check(
    usage.model === undefined || (typeof usage.model === 'string' && usage.model !== ''),
    `${where}.model is ${JSON.stringify(usage.model)}; leave it out when unknown.`,
  );
}

/** Usage, when reported, has the normalised shape. */
export const usageShapeValid = defineObligation('usage-shape-valid', async (scope: ObligationScope) => {
  const inPlace = scope.adapter.kind === 'in-place';
  await scope.withRun(
    { scenario: inPlace ? { steps: scope.finalOutput() } : undefined, configureBinary: inPlace },
    async (run) => {
      const result = await scope.expectSuccess(scope.doRun(run), 'an ordinary run');
      if (result.usage === null || result.usage === undefined) {
        scope.check(
          !(scope.adapter.supportsUsage === true && scope.resolved.usageOutput !== undefined),
          'the adapter declares supportsUsage but reported no usage for fixture.fakeCli.usageOutput.',
        );
      } else {
        checkUsage(scope, result.usage, 'result.usage');
      }
      run.usageEvents.forEach((usage, index) => {
        checkUsage(scope, usage, `usage event ${index + 1}`);
      });
    },
  );
});
