/**
 * Where a resolved model came from. Recorded in the audit event `coder-resolve` and in `state.json`, so
 * `snodo meta` can say why a model was used.
 *
 * - `flag`: a plain `-m`; `flag-namespaced`: `-m <prefix>/<model>` for the running coder (prefix stripped).
 * - `mock-default`: `--mock` without a plain `-m` judges with `mock/pass`.
 * - `protocol:coder_config.model`: the mode's `coder_config.model` in `.snodo/protocol.yml`.
 * - `config:<key>`: that config key (`config:llm.validator.model`, `config:coders.<id>.model`, `config:model`).
 * - `cli-default`: an in-place coder with no model runs on its CLI's own default.
 * - `unset`: nothing configures this role; the caller fails only if the role is actually used.
 */
export type ModelSource =
  | 'flag'
  | 'flag-namespaced'
  | 'mock-default'
  | 'protocol:coder_config.model'
  | `config:${string}`
  | 'cli-default'
  | 'unset';

/** One role's model and where it came from. */
export interface ResolvedModel {
  /** The model string; `undefined` when the role has none (see `source`). */
  readonly model: string | undefined;
  /** Why this model, for the audit log and `snodo meta`. */
  readonly source: ModelSource;
}

/** The models of one run, per role (SPEC §4.4). */
export interface ResolvedModels {
  /** The judging model of LLM gates. */
  readonly judging: ResolvedModel;
  /** The classifier's model (intent routing). */
  readonly classifier: ResolvedModel;
  /** The running coder's model, prefix stripped; `undefined` leaves it to the coder's default. */
  readonly coder: ResolvedModel;
}
