import { CoderConfigInvalidError } from '@snodo/coder-sdk';
import type { CoderRegistration } from '../coders/coder-registration.js';
import type { CoderRegistry } from '../coders/coder-registry.js';
import { type CoderModelMatch, findCoderByModel } from '../coders/find-coder-by-model.js';
import { ModelCoderMismatchError } from './model-coder-mismatch-error.js';
import type { ModelsConfig } from './models-config.js';
import type { ResolvedModel, ResolvedModels } from './resolved-models.js';

/** The judging model `--mock` implies when `-m` does not give a plain one. */
export const mockJudgingModel = 'mock/pass';

/** What `resolveModels` needs: the run's flags, the chosen coder, config and the mode's coder settings. */
export interface ResolveModelsInput {
  /** The registry, whose namespaces tell a coder's model (`<prefix>/x`) from a plain model. */
  readonly registry: Pick<CoderRegistry, 'list'>;
  /** The coder `resolveCoderName` chose. */
  readonly coderRegistration: CoderRegistration;
  /** `-m/--model` as given. */
  readonly modelFlag?: string;
  /**
   * A second `-m` in a coder's namespace (`-m mock/pass -m my-cli/some-model`): the coder's model, given
   * beside a plain judging `modelFlag`. The CLI splits repeated `-m` by role; a namespaced `modelFlag` with
   * it is the caller's error, and this one wins.
   */
  readonly coderModelFlag?: string;
  /** `--coder` as given, to name it in a mismatch error. */
  readonly coderFlag?: string;
  /** The running mode's `coder` field; its `coder_config` applies only when it names the chosen coder. */
  readonly modeCoder?: string;
  /** The running mode's id, to name it in errors. */
  readonly modeId?: string;
  /** `--mock` was given: judges default to `mock/pass` and a namespaced `-m` is not an error. */
  readonly mock: boolean;
  /** The loaded config (`model`, `llm.<role>.model`, `coders.<id>.model`). */
  readonly config: ModelsConfig;
  /** The running mode's `coder_config` from `.snodo/protocol.yml`; its `model` is a coder model. */
  readonly modeCoderConfig?: Readonly<Record<string, unknown>>;
}

/**
 * Resolves the model of each role for one run (SPEC §4.4), each with its source.
 *
 * - Judging (validators) and classifier: a plain `-m`; else `mock/pass` under `--mock`; else
 *   `llm.validator.model` (the classifier first tries `llm.classifier.model`), then top-level `model`;
 *   else `undefined` with source `unset`, and the caller fails only when a judge actually needs one.
 * - A `-m` in a coder's namespace (`<prefix>/x`) is that coder's model, prefix stripped, and never a judging
 *   model; naming another coder than the chosen one is a `ModelCoderMismatchError` (except under `--mock`).
 * - The coder: the namespaced `-m`; for engine-managed coders marked `usesJudgingModel`, a plain `-m`; then
 *   the mode's `coder_config.model`, `coders.<id>.model`, for those coders `llm.coder.model`, then `model`
 *   (plain for those coders, or in the running coder's namespace for any). In-place coders never get a
 *   plain judging model: with none of these they run on their CLI's default (`cli-default`).
 *
 * Called by `runTask` after `resolveCoderName`; the result goes to the audit event `coder-resolve`.
 *
 * @throws {ModelCoderMismatchError} for a namespaced `-m` that belongs to another coder.
 * @throws {CoderConfigInvalidError} when the mode's `coder_config.model` is not text.
 */
export function resolveModels(input: ResolveModelsInput): ResolvedModels {
  const coder = input.coderRegistration;
  const registrations = input.registry.list();
  const match = (model: string | undefined) =>
    model === undefined ? undefined : findCoderByModel(model, registrations);

  const flag = present(input.modelFlag);
  const flagMatch = match(flag);
  const coderFlag = present(input.coderModelFlag);
  const coderFlagMatch = match(coderFlag);
  // The coder's model: the separate coder flag when given, else a namespaced `-m`.
  const namespacedSource = coderFlagMatch?.kind === 'namespace' ? coderFlag : flag;
  const namespacedFlag =
    coderFlagMatch?.kind === 'namespace'
      ? coderFlagMatch
      : flagMatch?.kind === 'namespace'
        ? flagMatch
        : undefined;
  const plainFlag = flagMatch?.kind === 'namespace' ? undefined : flag;
  if (namespacedFlag !== undefined && namespacedSource !== undefined && !input.mock) {
    checkSameCoder(input, namespacedSource, namespacedFlag);
  }

  const config = input.config;
  const topModel = present(config.model);
  const topMatch = match(topModel);
  const plainTopModel = topMatch?.kind === 'namespace' ? undefined : topModel;

  const judging = firstOf(
    [plainFlag, 'flag'],
    [input.mock ? mockJudgingModel : undefined, 'mock-default'],
    [present(config.llm?.validator?.model), 'config:llm.validator.model'],
    [plainTopModel, 'config:model'],
  ) ?? { model: undefined, source: 'unset' };

  const classifier =
    firstOf(
      [plainFlag, 'flag'],
      [input.mock ? mockJudgingModel : undefined, 'mock-default'],
      [present(config.llm?.classifier?.model), 'config:llm.classifier.model'],
    ) ?? judging;

  const ownNamespace = (found: CoderModelMatch | undefined) =>
    found?.kind === 'namespace' && found.registration.id === coder.id ? found : undefined;
  const coderModel = resolveCoderModel(input, {
    flagForCoder: ownNamespace(namespacedFlag),
    plainFlag,
    topForCoder: ownNamespace(topMatch),
    plainTopModel,
  });

  return { judging, classifier, coder: coderModel };
}

/** The chosen coder's model, from the most specific source that has one (see `resolveModels`). */
function resolveCoderModel(
  input: ResolveModelsInput,
  found: {
    /** `-m` in the chosen coder's own namespace. */
    flagForCoder: CoderModelMatch | undefined;
    /** `-m` when it is a plain model. */
    plainFlag: string | undefined;
    /** Config `model` in the chosen coder's own namespace. */
    topForCoder: CoderModelMatch | undefined;
    /** Config `model` when it is a plain model. */
    plainTopModel: string | undefined;
  },
): ResolvedModel {
  const coder = input.coderRegistration;
  // `-m <prefix>/` with nothing after it is still an explicit choice: the coder's own default.
  if (found.flagForCoder !== undefined)
    return { model: found.flagForCoder.coderModel, source: 'flag-namespaced' };
  const usesJudgingModel = coder.kind === 'engine-managed' && coder.usesJudgingModel === true;
  const own = (model: string | undefined) => stripOwnPrefix(model, coder);
  const config = input.config;
  return (
    firstOf(
      [usesJudgingModel ? found.plainFlag : undefined, 'flag'],
      [own(modeCoderModel(input)), 'protocol:coder_config.model'],
      [own(present(config.coders?.[coder.id]?.model)), `config:coders.${coder.id}.model`],
      [usesJudgingModel ? own(present(config.llm?.coder?.model)) : undefined, 'config:llm.coder.model'],
      [found.topForCoder?.coderModel ?? (usesJudgingModel ? found.plainTopModel : undefined), 'config:model'],
    ) ?? { model: undefined, source: coder.kind === 'in-place' ? 'cli-default' : 'unset' }
  );
}

/** Throws when a namespaced `-m` belongs to another coder than the chosen one. */
function checkSameCoder(input: ResolveModelsInput, flag: string, namespaced: CoderModelMatch): void {
  const coder = input.coderRegistration;
  const modelCoder = namespaced.registration;
  if (modelCoder.id === coder.id) return;
  const chosenBy =
    present(input.coderFlag) !== undefined || present(input.modeCoder) === undefined
      ? 'coder-flag'
      : 'protocol-mode';
  throw new ModelCoderMismatchError({
    model: flag,
    coder: describe(coder),
    modelCoder: describe(modelCoder),
    chosenBy,
    ...(input.modeId === undefined ? {} : { modeId: input.modeId }),
  });
}

/** The mode's `coder_config.model`, when the mode's coder settings apply to the chosen coder. */
function modeCoderModel(input: ResolveModelsInput): string | undefined {
  const modeCoder = present(input.modeCoder);
  // A mode's coder_config is written for the mode's coder; when --coder overrides it, it does not carry over.
  if (modeCoder !== undefined && modeCoder !== input.coderRegistration.id) return undefined;
  const model = input.modeCoderConfig?.model;
  if (model === undefined || model === null) return undefined;
  if (typeof model !== 'string') {
    throw new CoderConfigInvalidError({
      coderId: input.coderRegistration.id,
      setting: 'model',
      problem: `the mode's coder_config.model must be text, not ${typeof model}`,
    });
  }
  return present(model);
}

function describe(registration: CoderRegistration) {
  return {
    id: registration.id,
    displayName: registration.displayName,
    ...(registration.modelPrefix === undefined ? {} : { modelPrefix: registration.modelPrefix }),
  };
}

/** The first candidate that has a model, with its source. */
function firstOf(
  ...candidates: readonly (readonly [string | undefined, ResolvedModel['source']])[]
): ResolvedModel | undefined {
  for (const [model, source] of candidates) {
    if (model !== undefined) return { model, source };
  }
  return undefined;
}

/** A coder's own namespace on a configured model is redundant; the coder gets the model without it. */
function stripOwnPrefix(model: string | undefined, coder: CoderRegistration): string | undefined {
  if (model === undefined || coder.modelPrefix === undefined || !model.startsWith(coder.modelPrefix))
    return model;
  return present(model.slice(coder.modelPrefix.length));
}

/** Text with content, trimmed; empty or blank values count as not given. */
function present(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
