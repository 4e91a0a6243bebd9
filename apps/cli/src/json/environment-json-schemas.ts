import { z } from 'zod';

/** `snodo doctor --json`. */
export const doctorJsonSchema = z.object({
  ok: z.boolean(),
  checks: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['ok', 'warn', 'fail', 'info']),
      detail: z.string(),
      fix: z.string().optional(),
    }),
  ),
});

/** `snodo config show --json`: secrets masked, provider keys in the environment by name only. */
export const configShowJsonSchema = z.object({
  path: z.string(),
  exists: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  warnings: z.array(
    z.object({ file: z.string(), line: z.number(), column: z.number(), message: z.string() }),
  ),
  environmentKeys: z.array(z.string()),
});

/** `snodo models --json`. */
export const modelsJsonSchema = z.object({
  catalog: z.object({
    generatedAt: z.string(),
    source: z.string(),
    attribution: z.string(),
    modelCount: z.number().int().positive(),
  }),
  models: z.array(
    z.object({
      provider: z.string(),
      modelId: z.string(),
      model: z.string(),
      price: z.object({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        cacheRead: z.number().nonnegative(),
        cacheWrite: z.number().nonnegative(),
      }),
      contextWindow: z.number().nullable(),
      maxOutputTokens: z.number().nullable(),
    }),
  ),
});

/** `snodo protocol validate --json`: every issue with its position. */
export const protocolValidationJsonSchema = z.object({
  file: z.string(),
  valid: z.boolean(),
  errors: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
  issues: z.array(
    z.object({
      file: z.string(),
      line: z.number().int().positive(),
      column: z.number().int().positive(),
      path: z.string(),
      message: z.string(),
      severity: z.enum(['error', 'warning']),
      rule: z.string().optional(),
    }),
  ),
});

/** `snodo init --json`. */
/** A command `snodo init` detected, and the file it read it from (`lockfile package-lock.json`). */
const detectedCommandSchema = z.object({ command: z.array(z.string()), source: z.string() }).nullable();

export const initJsonSchema = z.object({
  path: z.string(),
  template: z.string(),
  repositoryRoot: z.string(),
  /** What init found and wrote into the protocol; `null` where it found nothing. */
  detected: z.object({ test: detectedCommandSchema, setup: detectedCommandSchema }),
});
