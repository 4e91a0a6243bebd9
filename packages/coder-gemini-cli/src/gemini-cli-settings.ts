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
 * ```
 */
export interface GeminiCliCoderConfig {
  /**
   * The Gemini API endpoint, given to Gemini CLI as `GOOGLE_GEMINI_BASE_URL`. Only this setting sets it: an
   * inherited `GOOGLE_GEMINI_BASE_URL` never reaches the CLI.
   */
  readonly baseUrl: string | undefined;
}

/**
 * The schema of those keys, parsed once per attempt by the SDK (a wrong value is `CODER_CONFIG_INVALID`
 * naming `coders.gemini-cli.<key>`).
 */
export const geminiCliConfigSchema: z.ZodType<GeminiCliCoderConfig> = z
  .object({
    base_url: z.url({ message: 'must be an http(s) URL' }).optional(),
    baseUrl: z.url({ message: 'must be an http(s) URL' }).optional(),
  })
  .loose()
  .transform((data) => ({ baseUrl: data.base_url ?? data.baseUrl }));
