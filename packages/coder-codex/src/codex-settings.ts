import { CoderConfigInvalidError, type SubprocessCoderAdapterSettings } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Settings `createCodexCoder` takes, on top of the SDK's subprocess settings (`killGraceMs`,
 * `transcriptCapBytes`, `defaultIdleTimeoutMs`, `versionProbeTimeoutMs`, `keepAttribution`).
 */
export interface CodexCoderSettings extends SubprocessCoderAdapterSettings {
  /**
   * How long Codex may keep running after it printed `turn.completed` (or `turn.failed`) before snodo
   * stops its process group and keeps the result. Default 5000 ms (it normally exits within a tenth).
   */
  readonly finalEventGraceMs?: number;
}

/**
 * The keys of `coderConfig` (config `coders.codex`, or the protocol mode's `coder_config`) this adapter
 * reads, besides the SDK's `binary` and `keep_attribution`.
 */
const codexConfigSchema = z.looseObject({
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
});

/** What the adapter takes from `coderConfig`. */
export interface CodexRunConfig {
  /** The Responses endpoint for this run, when configured. */
  readonly baseUrl: string | undefined;
}

/** Validates this adapter's keys of `coderConfig`; a wrong value is `CODER_CONFIG_INVALID`. */
export function readCodexConfig(coderConfig: Readonly<Record<string, unknown>>): CodexRunConfig {
  const parsed = codexConfigSchema.safeParse(coderConfig);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoderConfigInvalidError({
      coderId: 'codex',
      setting: issue?.path.join('.') || 'coder_config',
      problem: issue?.message ?? 'it does not have the expected shape',
      cause: parsed.error,
    });
  }
  return { baseUrl: parsed.data.base_url };
}
