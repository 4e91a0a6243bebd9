import { z } from 'zod';

/** The roles that may have their own model settings under `llm.<role>` (SPEC §4.4). */
export const LLM_ROLES = ['validator', 'classifier', 'coder'] as const;

/** `validator`, `classifier` or `coder`. */
export type LlmRole = (typeof LLM_ROLES)[number];

/** Settings of one role's model calls. */
export const llmRoleSettingsSchema = z.object({
  /** `provider/model` for this role, over the top-level `model`. */
  model: z.string().min(1).optional(),
  /** Output token limit of one call. */
  max_tokens: z.number().int().positive().optional(),
  /** Sampling temperature. */
  temperature: z.number().min(0).max(2).optional(),
  /** Model calls one coder attempt (or one judge with read-only tools) may make. */
  max_tool_turns: z.number().int().positive().optional(),
});

/** `llm.<role>` as loaded. */
export type LlmRoleSettings = z.infer<typeof llmRoleSettingsSchema>;

const environmentVariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: 'must be an environment variable name (letters, digits, `_`)',
});

/** `providers.<name>`: how to reach one model provider. The same keys `@snodo/llm` reads. */
export const providerSettingsSchema = z.object({
  /** The API key, stored by `snodo config add <provider> <key>`; wins over the environment. Secret. */
  api_key: z.string().min(1).optional(),
  /** The environment variable that holds the key, replacing the provider's default variable. */
  api_key_env: environmentVariableName.optional(),
  /** Endpoint base URL (a compatible proxy, a local model server…). */
  base_url: z
    .string()
    .refine((value) => URL.canParse(value), { error: 'must be a URL such as http://localhost:4000/v1' })
    .optional(),
});

/** `providers.<name>` as loaded. */
export type ProviderConfig = z.infer<typeof providerSettingsSchema>;

const positiveSeconds = z.number().positive();

/**
 * Settings that some coders read (each documented in that coder's README), declared here so that
 * `snodo config set coders.<id>.<key>` accepts them and checks their type. The coder itself checks what it
 * reads (`CODER_CONFIG_INVALID`); a coder that does not read one ignores it.
 */
const coderSpecificSettingsShape = {
  /** The coder's model endpoint (a gateway, a proxy, a local server). */
  base_url: z
    .string()
    .refine((value) => URL.canParse(value), { error: 'must be a URL such as http://localhost:4000/v1' })
    .optional(),
  /** The variable holding the key of that endpoint. */
  api_key_env: environmentVariableName.optional(),
  /** Private config/data/cache directories for the coder's CLI (`true`), or the user's own (`false`). */
  hermetic: z.boolean().optional(),
  /** Where a server-based coder runs (`host`, `docker`, `url`). */
  runtime: z.string().min(1).optional(),
  /** The address of a server the user runs. */
  url: z
    .string()
    .refine((value) => URL.canParse(value), { error: 'must be a URL such as http://127.0.0.1:4096' })
    .optional(),
  /** Basic-auth user name of that server. */
  username: z.string().min(1).optional(),
  /** Basic-auth password of that server. Secret. */
  password: z.string().min(1).optional(),
  /** The container image (docker runtime). */
  image: z.string().min(1).optional(),
  /** The docker CLI. */
  docker_binary: z.string().min(1).optional(),
  /** The agent of the coder's CLI that takes the prompt. */
  agent: z.string().min(1).optional(),
  /** Provider entries injected into the coder's own configuration. */
  provider_config: z.record(z.string(), z.unknown()).optional(),
  /** Permission rules over snodo's unattended defaults. */
  permission: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /** How long the coder's server may take to answer at start, in seconds. */
  startup_timeout_seconds: positiveSeconds.optional(),
  /** How often the coder's server is polled, in seconds. */
  poll_interval_seconds: positiveSeconds.optional(),
  /** Limit of one HTTP call to the coder's server, in seconds. */
  request_timeout_seconds: positiveSeconds.optional(),
  /** Output token limit of one model call (engine-managed coders). */
  max_tokens: z.number().int().positive().optional(),
  /** Model calls one attempt may make (engine-managed coders). */
  max_tool_turns: z.number().int().positive().optional(),
  /** Sampling temperature (engine-managed coders). */
  temperature: z.number().min(0).max(2).optional(),
  /** HTTP retries of one failed model call (engine-managed coders). */
  max_retries: z.number().int().nonnegative().optional(),
};

/** `coders.<id>`: settings of one coder, read by that coder's adapter through core. */
export const coderSettingsSchema = z
  .object({
    /** The coder's executable, when it is not the default name on PATH. */
    binary: z.string().min(1).optional(),
    /** The coder's own model, used when the run names no model for it. */
    model: z.string().min(1).optional(),
    /** Wall-clock limit of one run of this coder, in seconds, over the protocol's. */
    timeout_seconds: z.number().int().positive().optional(),
    /** Extra environment variables for this coder's process only. Values may be secrets. */
    env: z.record(z.string(), z.string()).optional(),
    /** The npm package that provides the coder, for coders installed on demand. */
    package: z.string().min(1).optional(),
    /** argv template; `{prompt}`, `{model}` and `{workspace}` are replaced per run. */
    command: z.array(z.string()).min(1).optional(),
    /** Whether the coder may keep its own attribution lines (co-author trailers) in commits. */
    keep_attribution: z.boolean().optional(),
    /** The name shown in messages, for a coder declared here (`package` or `command`). */
    display_name: z.string().min(1).optional(),
    /** `in-place` (the coder edits the worktree) or `engine-managed`, for a coder declared here. */
    kind: z.enum(['in-place', 'engine-managed']).optional(),
    /** The model namespace routing to a coder declared here (`mine/`). */
    model_prefix: z.string().min(1).optional(),
    /**
     * Environment variables a coder declared here (`command`) may receive from snodo's environment or
     * config store, by name (`[ACME_API_KEY]`); nothing else of the environment reaches it.
     */
    credentials: z.array(environmentVariableName).optional(),
    ...coderSpecificSettingsShape,
  })
  // Settings no coder README documents pass through to the coder, which checks what it reads; a near
  // miss of a known key is still reported.
  .loose();

/** `coders.<id>` as loaded. */
export type CoderConfig = z.infer<typeof coderSettingsSchema>;

/** `prices.<model>`: US dollars per million tokens, over the committed price catalog. */
export const modelPriceSchema = z.object({
  /** Uncached input tokens. */
  input: z.number().nonnegative().optional(),
  /** Output tokens. */
  output: z.number().nonnegative().optional(),
  /** Input tokens read from the provider's cache. */
  cache_read: z.number().nonnegative().optional(),
  /** Input tokens written to the provider's cache. */
  cache_write: z.number().nonnegative().optional(),
});

/** `prices.<model>` as loaded. */
export type ModelPriceConfig = z.infer<typeof modelPriceSchema>;

/**
 * `$SNODO_HOME/config.yml` (SPEC §8). Every section is optional: a missing file is the empty config.
 * Field names are the file's own snake_case names.
 */
export const snodoConfigSchema = z.object({
  /** The default model: the judging model, and the coding model of engine-managed coders. */
  model: z.string().min(1).optional(),
  /** Per-role model settings. */
  llm: z
    .object({
      /** LLM judges. */
      validator: llmRoleSettingsSchema.optional(),
      /** Intent routing (mode choice). */
      classifier: llmRoleSettingsSchema.optional(),
      /** Engine-managed coders. */
      coder: llmRoleSettingsSchema.optional(),
    })
    .optional(),
  /** Provider credentials and endpoints, by provider name. */
  providers: z.record(z.string(), providerSettingsSchema).optional(),
  /** Coder settings, by coder id. */
  coders: z.record(z.string(), coderSettingsSchema).optional(),
  /** Price overrides, by model string. */
  prices: z.record(z.string(), modelPriceSchema).optional(),
  /** Where worktrees are created; default `$SNODO_HOME/worktrees`. */
  worktrees_dir: z.string().min(1).optional(),
  /**
   * This machine's sandbox settings (SPEC §12). They may only make the protocol's stricter: `required` over a
   * protocol's `auto`, `network: false` over its `sandbox_network: true`; never the other way.
   */
  sandbox: z
    .object({
      /** `auto`, `required` or `off`; the stricter of this and the protocol's `execution.sandbox` applies. */
      mode: z.enum(['auto', 'required', 'off']).optional(),
      /** `false` runs command gates without network even when the protocol allows it. */
      network: z.boolean().optional(),
      /**
       * Absolute path of the `bwrap` executable, when it is not on PATH. The environment variable
       * `SNODO_SANDBOX_EXECUTABLE` wins over it.
       */
      executable: z.string().min(1).optional(),
    })
    .optional(),
  /** Where the audit log is anchored besides this machine (SPEC §12). */
  audit: z
    .object({
      /**
       * A git remote of the repository (`origin`): `refs/snodo/audit` is pushed there at every job end, and
       * `snodo audit verify` checks the remote's copy too.
       */
      remote: z.string().min(1).optional(),
    })
    .optional(),
  /** The queue `snodo submit` and `snodo worker` share (SPEC §13). This machine's setting, never the protocol's. */
  queue: z
    .object({
      /** `redis://host:port[/db]` (or `rediss://`) for Redis, `postgres://user@host:port/db` for PostgreSQL. Secret when it holds a password. */
      url: z
        .string()
        .refine((value) => URL.canParse(value), { error: 'must be a URL such as redis://127.0.0.1:6379' })
        .optional(),
      /** How long a worker's hold on a job lasts without renewal before another worker takes it over. */
      lock_seconds: z.number().positive().optional(),
      /** How often workers look for jobs a dead worker held. */
      stalled_interval_seconds: z.number().positive().optional(),
      /** The most waiting landings a lander takes in one merge train (one fetch, re-check and push). Default 8. */
      landing_batch: z.number().int().min(1).max(100).optional(),
    })
    .optional(),
});

/** A loaded config. */
export type SnodoConfig = z.infer<typeof snodoConfigSchema>;

/**
 * Keys of the Python snodo's config that this snodo does not read, with what replaces them. Such files
 * load with these notes as warnings instead of "unknown key".
 */
export const LEGACY_CONFIG_KEYS: Readonly<Record<string, string>> = {
  default_model: '`default_model` is from the Python snodo; use `model`',
  api_keys: '`api_keys` is from the Python snodo; store keys with `snodo config add <provider> <key>`',
  engine: 'the `engine` section is from the Python snodo and is ignored',
  cloud: 'the `cloud` section is from the Python snodo and is ignored',
  mcp: 'the `mcp` section is from the Python snodo and is ignored',
  project: '`project` is from the Python snodo and is ignored',
  project_id: '`project_id` is from the Python snodo and is ignored',
  'llm.num_retries': '`llm.num_retries` is from the Python snodo and is ignored',
  'llm.validator_llm': '`llm.validator_llm` is from the Python snodo; use `llm.validator.model`',
  'llm.recon': '`llm.recon` is from the Python snodo and is ignored',
  'llm.wave': '`llm.wave` is from the Python snodo and is ignored',
  'providers.*.models_endpoint': '`models_endpoint` is from the Python snodo and is ignored',
  'providers.*.account_id':
    '`account_id` is from the Python snodo and is ignored; put the account in `base_url`',
  'providers.*.account_id_env':
    '`account_id_env` is from the Python snodo and is ignored; put the account in `base_url`',
};
