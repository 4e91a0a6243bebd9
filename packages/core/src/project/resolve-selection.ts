import type { CoderRegistration, ResolvedCoderName } from '../coders/index.js';
import { resolveCoderName } from '../coders/index.js';
import { type ResolvedModels, resolveModels } from '../models/index.js';
import type { ProtocolMode } from '../protocol/index.js';
import type { Project } from './project.js';

/** The choices a user makes on the command line that pick a coder and its models. */
export interface SelectionRequest {
  /** `--coder <id>`. */
  readonly coder?: string | undefined;
  /** `-m/--model`: the judging model, or a coder's model when namespaced (`my-cli/some-model`). */
  readonly model?: string | undefined;
  /**
   * A second `-m`, in a coder's namespace (`my-cli/some-model`), beside a plain judging `model`: the
   * coder's model, and — without `--coder` — the coder it names.
   */
  readonly coderModel?: string | undefined;
  /** `--mock`: the mock coder and, unless `model` says otherwise, the `mock/pass` judging model. */
  readonly mock?: boolean | undefined;
  /** The mode the task runs in, when known: its `coder` and `coder_config` take part. */
  readonly mode?: ProtocolMode | undefined;
}

/** The coder that would run and every model role, each with where it came from. */
export interface Selection {
  /** The coder's id and source (`mock-flag`, `flag`, `mode`, `model-prefix`, `default`). */
  readonly coder: ResolvedCoderName;
  readonly registration: CoderRegistration;
  /** Judging, classifier and coder models with their sources. */
  readonly models: ResolvedModels;
}

/**
 * Picks the coder (SPEC §4.3: `--mock` > `--coder` > the mode's coder > a model's prefix > the default)
 * and the model of every role (§4.4) in one call, so every caller decides from the same inputs. Throws
 * `CODER_UNKNOWN` for an unknown `--coder` and `MODEL_CODER_MISMATCH` for a model namespaced for another.
 */
export function resolveSelection(
  project: Pick<Project, 'registry' | 'config'>,
  request: SelectionRequest,
): Selection {
  const { registry, config } = project;
  const mock = request.mock ?? false;
  const coder = resolveCoderName({
    registry,
    mock,
    coderFlag: request.coder,
    modeCoder: request.mode?.coder,
    modeId: request.mode?.mode_id,
    model: request.coderModel ?? request.model ?? config.model,
  });
  const registration = registry.registration(coder.coderId);
  const models = resolveModels({
    registry,
    coderRegistration: registration,
    modelFlag: request.model,
    coderModelFlag: request.coderModel,
    coderFlag: request.coder,
    modeCoder: request.mode?.coder,
    modeId: request.mode?.mode_id,
    mock,
    config,
    modeCoderConfig: request.mode?.coder_config,
  });
  return { coder, registration, models };
}
