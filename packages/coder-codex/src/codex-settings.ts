import type { SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings `createCodexCoder` takes: the SDK's subprocess settings (`killGraceMs`, `transcriptCapBytes`,
 * `defaultIdleTimeoutMs`, `versionProbeTimeoutMs`, `keepAttribution`, and `finalEventGraceMs`: how long
 * Codex may linger after `turn.completed` or `turn.failed`, the SDK's default).
 */
export type CodexCoderSettings = SubprocessCoderAdapterSettings;

/** What the adapter takes from `coderConfig`. */
export interface CodexRunConfig {
  /** The Responses endpoint for this run, when configured. */
  readonly baseUrl: string | undefined;
  /**
   * How often Codex retries a failed request or stream to `base_url` before it gives up (the provider's
   * `request_max_retries` and `stream_max_retries`; Codex's default is 5 and 4). Only with `base_url`.
   */
  readonly maxRetries: number | undefined;
}

/**
 * The keys of `coderConfig` (config `coders.codex`, or the protocol mode's `coder_config`) this adapter
 * reads, besides the SDK's `binary` and `keep_attribution`; the SDK parses them once per attempt.
 */
export const codexConfigSchema: z.ZodType<CodexRunConfig> = z
  .looseObject({
    /**
     * An OpenAI Responses-compatible endpoint (`http://127.0.0.1:4000/v1`): a gateway, a proxy, a test
     * server. Codex then talks to it as a custom model provider with this coder's key. Only this setting
     * sets an endpoint; an inherited `OPENAI_BASE_URL` never does.
     */
    base_url: z
      .string()
      .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
        message: 'must be an http(s) URL such as http://127.0.0.1:4000/v1',
      })
      .optional(),
    /** Retries of a failing request or stream to `base_url`; see `CodexRunConfig.maxRetries`. */
    max_retries: z
      .number({ message: 'must be a whole number from 0 to 100' })
      .int({ message: 'must be a whole number from 0 to 100' })
      .min(0, { message: 'must be 0 or more' })
      .max(100, { message: 'must be at most 100' })
      .optional(),
  })
  .refine((data) => data.max_retries === undefined || data.base_url !== undefined, {
    message: 'max_retries needs base_url (it configures the custom provider snodo writes for it)',
    path: ['max_retries'],
  })
  .transform((data) => ({ baseUrl: data.base_url, maxRetries: data.max_retries }));
