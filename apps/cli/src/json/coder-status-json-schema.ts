import { z } from 'zod';

/** `snodo coders --json`: one coder's status. */
export const coderStatusJsonSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  kind: z.string(),
  modelPrefix: z.string().nullable(),
  isDefault: z.boolean(),
  installed: z.boolean(),
  version: z.string().nullable(),
  credentials: z.string(),
  credentialVariables: z.array(z.string()),
  ready: z.boolean(),
  reason: z.string().nullable(),
  fix: z.string().nullable(),
  installHint: z.string().nullable(),
  sandbox: z.enum(['supported', 'unsupported', 'not-needed', 'unknown']),
});

/** Whether a sandbox works on this machine (`snodo coders --json`, `snodo doctor`). */
export const sandboxStatusJsonSchema = z.object({
  available: z.boolean(),
  executable: z.string().optional(),
  version: z.string().optional(),
  reason: z.string().optional(),
  fix: z.string().optional(),
});

/** `snodo coders --json`. */
export const codersJsonSchema = z.object({
  coders: z.array(coderStatusJsonSchema),
  sandbox: sandboxStatusJsonSchema,
});
