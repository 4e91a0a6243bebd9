import { z } from 'zod';

/** `snodo audit verify --json`: the verification, the checkpoints found per place, what was not checked. */
export const auditVerifyJsonSchema = z.object({
  logPath: z.string(),
  result: z.object({
    ok: z.boolean(),
    events: z.number().int().nonnegative(),
    lines: z.number().int().nonnegative(),
    logId: z.string().optional(),
    headSeq: z.number().int().optional(),
    headHash: z.string().optional(),
    checkpointsVerified: z.number().int().nonnegative(),
    warnings: z.array(z.object({ code: z.string(), reason: z.string(), line: z.number().int() })),
    failure: z
      .object({
        code: z.string().regex(/^E_[A-Z_]+$/),
        reason: z.string(),
        line: z.number().int().positive().optional(),
        seq: z.number().int().optional(),
      })
      .optional(),
  }),
  checkpoints: z.object({
    store: z.number().int().nonnegative(),
    ref: z.number().int().nonnegative(),
    trailers: z.number().int().nonnegative(),
  }),
  notChecked: z.array(z.string()),
});

/** `snodo audit show --json`: the events as written in `.snodo/audit.log`. */
export const auditEventsJsonSchema = z.array(
  z.object({
    v: z.literal(1),
    seq: z.number().int().nonnegative(),
    ts: z.string(),
    type: z.string(),
    job: z.string().optional(),
    actor: z.string(),
    data: z.record(z.string(), z.unknown()),
    prev: z.string().regex(/^[0-9a-f]{64}$/),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
  }),
);

/** `snodo audit export --job <id>`: a DSSE envelope around an in-toto statement. */
export const dsseEnvelopeJsonSchema = z.object({
  payloadType: z.literal('application/vnd.in-toto+json'),
  payload: z.string().min(1),
  signatures: z.array(z.object({ keyid: z.string(), sig: z.string().min(1) })).min(1),
});
