import { CoderConfigInvalidError, type SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings `createClaudeCodeCoder` takes, on top of the SDK's subprocess settings (`killGraceMs`,
 * `transcriptCapBytes`, `defaultIdleTimeoutMs`, `versionProbeTimeoutMs`, `keepAttribution`).
 */
export interface ClaudeCodeCoderSettings extends SubprocessCoderAdapterSettings {
  /**
   * How long Claude Code may keep running after it printed its `result` event before snodo stops its
   * process group and keeps the result. Default 5000 ms (it normally exits within a tenth of that).
   */
  readonly finalEventGraceMs?: number;
}

/**
 * The keys of `coderConfig` (config `coders.claude-code`, or the protocol mode's `coder_config`) this
 * adapter reads, besides the SDK's `binary` and `keep_attribution`.
 */
const claudeCodeConfigSchema = z.looseObject({
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
});

/** What the adapter takes from `coderConfig`. */
export interface ClaudeCodeRunConfig {
  /** `ANTHROPIC_BASE_URL` for this run, when configured. */
  readonly baseUrl: string | undefined;
}

/** Validates this adapter's keys of `coderConfig`; a wrong value is `CODER_CONFIG_INVALID`. */
export function readClaudeCodeConfig(coderConfig: Readonly<Record<string, unknown>>): ClaudeCodeRunConfig {
  const parsed = claudeCodeConfigSchema.safeParse(coderConfig);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoderConfigInvalidError({
      coderId: 'claude-code',
      setting: issue?.path.join('.') || 'coder_config',
      problem: issue?.message ?? 'it does not have the expected shape',
      cause: parsed.error,
    });
  }
  return { baseUrl: parsed.data.base_url };
}
