import { classifyValidator } from '../gates/classify-validator.js';
import { type Protocol, type ProtocolMode, validatorsForMode } from '../protocol/index.js';
import type { ModeChoice } from './choose-mode.js';

/** A validator that calls a model, and the model it names itself (`model:`), if any. */
export interface RunnableJudge {
  readonly validatorId: string;
  readonly ownModel: string | undefined;
}

/**
 * The modes whose gates may run: the chosen one, or under `classifier` with a classifier model every mode
 * it may pick (without one the run falls back to the plan's mode, so only that mode's gates run).
 */
export function modesThatMayRun(
  choice: ModeChoice,
  classifierModel: string | undefined,
): readonly ProtocolMode[] {
  return choice.source === 'classifier' && classifierModel !== undefined ? choice.candidates : [choice.mode];
}

/**
 * Every judge (`judge` or `protocol` route) the run may call, across the modes it may run in: what the
 * plan checks for a model (`findMissingModels`) and for that model's key (`findMissingCredentials`).
 * A validator without criteria calls no model (it only warns) and is left out.
 */
export function judgesThatMayRun(
  protocol: Protocol,
  choice: ModeChoice,
  classifierModel: string | undefined,
): RunnableJudge[] {
  const judges = new Map<string, RunnableJudge>();
  for (const mode of modesThatMayRun(choice, classifierModel)) {
    for (const validator of validatorsForMode(protocol, mode.mode_id)) {
      const route = classifyValidator(validator);
      if (route !== 'judge' && route !== 'protocol') continue;
      const own = (validator.model ?? '').trim();
      judges.set(validator.validator_id, {
        validatorId: validator.validator_id,
        ownModel: own === '' ? undefined : own,
      });
    }
  }
  return [...judges.values()];
}
