import type { SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
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

const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * The schema of those keys, parsed once per attempt by the SDK (a wrong value is `CODER_CONFIG_INVALID`
 * naming `coders.opencode-cli.<key>`).
 */
export const opencodeCliConfigSchema: z.ZodType<OpencodeCliCoderConfig> = z
  .object({
    base_url: httpUrl.optional(),
    baseUrl: httpUrl.optional(),
    api_key_env: variableName.optional(),
    apiKeyEnv: variableName.optional(),
    hermetic: z.boolean().optional(),
  })
  .loose()
  .transform((data) => ({
    baseUrl: data.base_url ?? data.baseUrl,
    apiKeyEnv: data.api_key_env ?? data.apiKeyEnv ?? 'OPENAI_API_KEY',
    hermetic: data.hermetic ?? true,
  }));
