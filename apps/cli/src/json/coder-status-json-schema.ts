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
  /**
   * Where its key really comes from: `config` (the provider and the config file), `environment` (the
   * variable), `cli-login` (the CLI's own login), `own-login-only` (snodo passes this coder no key), `none`.
   */
  credentialSource: z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('config'),
        provider: z.string(),
        variable: z.string().optional(),
        path: z.string(),
      }),
      z.object({ kind: z.literal('environment'), variable: z.string() }),
      z.object({ kind: z.literal('cli-login') }),
      z.object({ kind: z.literal('own-login-only') }),
      z.object({ kind: z.literal('none') }),
    ])
    .optional(),
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
