import type { SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings `createClaudeCodeCoder` takes: the SDK's subprocess settings (`killGraceMs`,
 * `transcriptCapBytes`, `defaultIdleTimeoutMs`, `versionProbeTimeoutMs`, `keepAttribution`, and
 * `finalEventGraceMs`: how long Claude Code may linger after its `result` event, the SDK's default).
 */
export type ClaudeCodeCoderSettings = SubprocessCoderAdapterSettings;

/** What the adapter takes from `coderConfig`. */
export interface ClaudeCodeRunConfig {
  /** `ANTHROPIC_BASE_URL` for this run, when configured. */
  readonly baseUrl: string | undefined;
  /** `CLAUDE_CODE_MAX_RETRIES` for this run (retries of a failing model call), when configured. */
  readonly maxRetries: number | undefined;
}

/**
 * The keys of `coderConfig` (config `coders.claude-code`, or the protocol mode's `coder_config`) this
 * adapter reads, besides the SDK's `binary` and `keep_attribution`; the SDK parses them once per attempt.
 */
export const claudeCodeConfigSchema: z.ZodType<ClaudeCodeRunConfig> = z
  .looseObject({
    /**
     * The Anthropic-compatible endpoint Claude Code talks to (`ANTHROPIC_BASE_URL`): a gateway, a proxy, a
     * test server. Only this setting or `coders.claude-code.env` sets it; an inherited variable never does.
     */
    base_url: z
      .string()
      .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
        message: 'must be an http(s) URL such as http://127.0.0.1:4000',
      })
      .optional(),
    /**
     * How often Claude Code retries a failing model call (5xx, 429) before it gives up
     * (`CLAUDE_CODE_MAX_RETRIES`; its default is 10, with backoff growing to minutes).
     */
    max_retries: z
      .number({ message: 'must be a whole number from 0 to 100' })
      .int({ message: 'must be a whole number from 0 to 100' })
      .min(0, { message: 'must be 0 or more' })
      .max(100, { message: 'must be at most 100' })
      .optional(),
  })
  .transform((data) => ({ baseUrl: data.base_url, maxRetries: data.max_retries }));
