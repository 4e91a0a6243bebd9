import { CoderConfigInvalidError, type SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
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

const configSchema = z
  .object({
    base_url: z.url({ message: 'must be an http(s) URL' }).optional(),
    baseUrl: z.url({ message: 'must be an http(s) URL' }).optional(),
  })
  .loose();

/** Validates this adapter's keys of `coderConfig`; a wrong value is `CODER_CONFIG_INVALID`. */
export function readGeminiCliConfig(
  coderId: string,
  coderConfig: Readonly<Record<string, unknown>>,
): GeminiCliCoderConfig {
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
  return { baseUrl: parsed.data.base_url ?? parsed.data.baseUrl };
}
