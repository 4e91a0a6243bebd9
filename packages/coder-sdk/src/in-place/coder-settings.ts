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

/**
 * Parses `coderConfig` (config `coders.<id>`, or the protocol mode's `coder_config`) with an adapter's zod
 * schema. The one parse-or-throw every adapter shares: the first problem becomes `CODER_CONFIG_INVALID`
 * naming the key (`coders.<id>.<key>`), so a typo in config never reaches a CLI.
 */
export function parseCoderConfig<Config>(
  coderId: string,
  schema: z.ZodType<Config>,
  coderConfig: Readonly<Record<string, unknown>>,
): Config {
  const parsed = schema.safeParse(coderConfig);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CoderConfigInvalidError({
    coderId,
    setting: issue?.path.join('.') || 'coder_config',
    problem: issue?.message ?? 'it does not have the expected shape',
    cause: parsed.error,
  });
}

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
  const data = parseCoderConfig(coderId, coderConfigSchema, coderConfig);
  return {
    binary: data.binary,
    keepAttribution: data.keepAttribution === true || data.keep_attribution === true,
  };
}
