import type { SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings of `createGeminiCliCoder`: the SDK's subprocess settings (kill grace, transcript cap, idle limit,
 * `finalEventGraceMs` after the `result` event).
 */
export type GeminiCliCoderSettings = SubprocessCoderAdapterSettings;

/**
 * The keys of `coder_config` (or config `coders.gemini-cli`) this adapter reads, besides the SDK's own
 * (`binary`, `keep_attribution`).
 *
 * ```yaml
 * coders:
 *   gemini-cli:
 *     base_url: http://127.0.0.1:8080   # a Gemini-compatible endpoint (proxy, gateway, test server)
 *     max_retries: 2                    # retries of a failing model call before Gemini CLI gives up (0–9)
 * ```
 */
export interface GeminiCliCoderConfig {
  /**
   * The Gemini API endpoint, given to Gemini CLI as `GOOGLE_GEMINI_BASE_URL`. Only this setting sets it: an
   * inherited `GOOGLE_GEMINI_BASE_URL` never reaches the CLI.
   */
  readonly baseUrl: string | undefined;
  /**
   * How many times Gemini CLI calls the model for one request before it gives up on a failing provider:
   * `max_retries` + 1, its own `general.maxAttempts` setting (which it caps at 10, its default). Unset:
   * Gemini CLI's default.
   */
  readonly maxAttempts: number | undefined;
}

/**
 * The schema of those keys, parsed once per attempt by the SDK (a wrong value is `CODER_CONFIG_INVALID`
 * naming `coders.gemini-cli.<key>`).
 */
export const geminiCliConfigSchema: z.ZodType<GeminiCliCoderConfig> = z
  .object({
    base_url: z.url({ message: 'must be an http(s) URL' }).optional(),
    baseUrl: z.url({ message: 'must be an http(s) URL' }).optional(),
    max_retries: z
      .number({ message: 'must be a whole number from 0 to 9' })
      .int({ message: 'must be a whole number from 0 to 9' })
      .min(0, { message: 'must be 0 or more' })
      .max(9, { message: 'must be at most 9 (Gemini CLI makes at most 10 attempts)' })
      .optional(),
  })
  .loose()
  .transform((data) => ({
    baseUrl: data.base_url ?? data.baseUrl,
    maxAttempts: data.max_retries === undefined ? undefined : data.max_retries + 1,
  }));
