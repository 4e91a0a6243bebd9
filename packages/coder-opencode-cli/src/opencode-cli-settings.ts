import { CoderConfigInvalidError, type SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings of `createOpencodeCliCoder`: the SDK's subprocess settings (kill grace, transcript cap, idle
 * limit, `finalEventGraceMs` after the session's final event).
 */
export type OpencodeCliCoderSettings = SubprocessCoderAdapterSettings;

/**
 * The keys of `coder_config` (or config `coders.opencode-cli`) this adapter reads, besides the SDK's own
 * (`binary`, `keep_attribution`).
 *
 * ```yaml
 * coders:
 *   opencode-cli:
 *     base_url: http://127.0.0.1:4000/v1   # an OpenAI-compatible endpoint (LiteLLM, vLLM, Ollama…)
 *     api_key_env: LITELLM_API_KEY          # the variable holding its key (default OPENAI_API_KEY)
 *     model: snodo/qwen3-coder              # the coder's model; `snodo/` is the provider for base_url
 *     hermetic: true                        # private config and data dirs (default)
 * ```
 */
export interface OpencodeCliCoderConfig {
  /**
   * An OpenAI-compatible endpoint, declared to OpenCode as provider `snodo`. Only this setting sets an
   * endpoint: inherited `*_BASE_URL` variables never reach OpenCode.
   */
  readonly baseUrl: string | undefined;
  /** The variable whose value OpenCode sends as the endpoint's key. Default `OPENAI_API_KEY`. */
  readonly apiKeyEnv: string;
  /**
   * `true` (default): private XDG config, data, cache and state directories per run, no project
   * `opencode.json`, no models.dev fetch, no Claude Code files; OpenCode knows only what snodo tells it.
   * `false`: the user's own OpenCode directories and login (`opencode auth login`), still without
   * auto-update or sharing.
   */
  readonly hermetic: boolean;
}

const configSchema = z
  .object({
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    hermetic: z.boolean().optional(),
  })
  .loose();

/** Validates this adapter's keys of `coderConfig`; a wrong value is `CODER_CONFIG_INVALID`. */
export function readOpencodeCliConfig(
  coderId: string,
  coderConfig: Readonly<Record<string, unknown>>,
): OpencodeCliCoderConfig {
  const parsed = configSchema.safeParse(coderConfig);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoderConfigInvalidError({
      coderId,
      setting: issue?.path.join('.') || 'coder_config',
      problem: issue?.message ?? 'it does not have the expected shape',
      cause: parsed.error,
    });
  }
  const data = parsed.data;
  return {
    baseUrl: data.base_url ?? data.baseUrl,
    apiKeyEnv: data.api_key_env ?? data.apiKeyEnv ?? 'OPENAI_API_KEY',
    hermetic: data.hermetic ?? true,
  };
}
