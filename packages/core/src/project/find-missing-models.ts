import type { Protocol } from '../protocol/index.js';
import type { ModeChoice } from './choose-mode.js';
import { judgesThatMayRun } from './judges-that-may-run.js';
import { type ModelNeed, ModelRequiredError } from './model-required-error.js';
import type { Selection } from './resolve-selection.js';

/**
 * The model roles a run of `selection` would need and nothing configures, as the typed error the run is
 * refused with, or `undefined` when every model it needs is there. A judge (`judge` or `protocol` route)
 * with its own `model:` needs none; a validator without criteria needs none (it only warns). An
 * engine-managed coder that calls models itself (`usesJudgingModel`) needs a coder model. Read-only: what
 * `decideTask` refuses and what `snodo run --dry-run`, `snodo coders` and `snodo doctor` call not ready.
 */
export function findMissingModels(options: {
  protocol: Protocol;
  choice: ModeChoice;
  selection: Selection;
  classifierModel: string | undefined;
}): ModelRequiredError | undefined {
  const { protocol, choice, selection, classifierModel } = options;
  const needs: ModelNeed[] = [];
  if (selection.models.judging.model === undefined) {
    const judges = judgesThatMayRun(protocol, choice, classifierModel)
      .filter((judge) => judge.ownModel === undefined)
      .map((judge) => judge.validatorId);
    if (judges.length > 0) needs.push({ role: 'judging', neededBy: judges });
  }
  const { registration } = selection;
  if (
    registration.kind === 'engine-managed' &&
    registration.usesJudgingModel === true &&
    selection.models.coder.model === undefined
  ) {
    needs.push({ role: 'coder', neededBy: [registration.displayName] });
  }
  return needs.length === 0 ? undefined : new ModelRequiredError({ needs });
}
