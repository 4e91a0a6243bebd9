import { z } from 'zod';
import { CoderConfigInvalidError } from '../errors/coder-config-invalid-error.js';

/**
 * The keys of `request.coderConfig` the SDK's base classes read themselves. Other keys belong to the
 * adapter. Both spellings of multi-word keys are accepted: YAML config uses snake case.
 */
const coderConfigSchema = z
  .object({
    binary: z.string().min(1, 'must be a non-empty path or command name').optional(),
    keepAttribution: z.boolean().optional(),
    keep_attribution: z.boolean().optional(),
  })
  .loose();

/** What the base classes take from `coderConfig`. */
export interface BaseCoderConfig {
  /** An explicit executable (`coders.<id>.binary`). */
  readonly binary: string | undefined;
  /** Keep CLI attribution trailers in the commit. */
  readonly keepAttribution: boolean;
}

/** Validates the base keys of `coderConfig`; a wrong type is `CODER_CONFIG_INVALID`. */
export function readBaseCoderConfig(
  coderId: string,
  coderConfig: Readonly<Record<string, unknown>>,
): BaseCoderConfig {
  const parsed = coderConfigSchema.safeParse(coderConfig);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoderConfigInvalidError({
      coderId,
      setting: issue?.path.join('.') || 'coder_config',
      problem: issue?.message ?? 'it does not have the expected shape',
      cause: parsed.error,
    });
  }
  return {
    binary: parsed.data.binary,
    keepAttribution: parsed.data.keepAttribution === true || parsed.data.keep_attribution === true,
  };
}
