import { z } from 'zod';

/** `snodo audit verify --remote <remote> --json`: every worker chain, the keys, the landings, each problem. */
export const auditVerifyRemoteJsonSchema = z.object({
  ok: z.boolean(),
  remote: z.string(),
  base: z.string(),
  baseCommit: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
  chains: z.array(
    z.object({
      worker: z.string(),
      keyId: z.string().optional(),
      snapshots: z.number().int().nonnegative(),
      events: z.number().int().nonnegative(),
      ok: z.boolean(),
    }),
  ),
  keys: z.array(z.object({ worker: z.string(), keyId: z.string() })),
  landings: z.object({ checked: z.number().int().nonnegative(), anchored: z.number().int().nonnegative() }),
  failures: z.array(
    z.object({
      code: z.enum([
        'E_CHAIN_MISSING',
        'E_CHAIN_REWRITTEN',
        'E_SIGNATURE',
        'E_KEY_UNREGISTERED',
        'E_KEYS_REWRITTEN',
        'E_LANDING_UNANCHORED',
      ]),
      reason: z.string(),
      worker: z.string().optional(),
      commit: z.string().optional(),
    }),
  ),
});
