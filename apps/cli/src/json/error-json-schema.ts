import { z } from 'zod';

/**
 * The one document every command prints on stdout when it fails under `--json`, instead of its usual
 * document: scripts read `code` (stable, the same as the error's), `message` and `fix` (the command that
 * fixes it, when there is one); `exitCode` is the process's. `version` changes when the shape does.
 */
export const errorJsonSchema = z.object({
  version: z.literal(1),
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  fix: z.string().nullable(),
  exitCode: z.number().int(),
});

/** `errorJsonSchema`'s document. */
export type ErrorJson = z.infer<typeof errorJsonSchema>;
