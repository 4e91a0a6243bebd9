/** One `llm.<role>` section of config, as far as model resolution reads it. */
export interface ModelRoleConfig {
  /** The model this role uses (`provider/model`). */
  readonly model?: string;
}

/**
 * The part of snodo's config (`$SNODO_HOME/config.yml`, SPEC §8) that decides models. A structural view:
 * the full loaded config is passed as is.
 */
export interface ModelsConfig {
  /** The default model of every role: judges, classifier, and engine-managed coders that code with it. */
  readonly model?: string;
  /** Per-role models. */
  readonly llm?: {
    /** The judging model of LLM gates. */
    readonly validator?: ModelRoleConfig;
    /** The model of the classifier (intent routing). */
    readonly classifier?: ModelRoleConfig;
    /** The coding model of engine-managed coders that code with the plain model. */
    readonly coder?: ModelRoleConfig;
  };
  /** Per-coder settings; only `coders.<id>.model` matters here. */
  readonly coders?: Readonly<Record<string, { readonly model?: string } | undefined>>;
}
