import { z } from 'zod';

/** `snodo audit verify --json`: the verification, the checkpoints found per place, what was not checked. */
export const auditVerifyJsonSchema = z.object({
  logPath: z.string(),
  logExists: z.boolean(),
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
    own: z.number().int().nonnegative(),
    store: z.number().int().nonnegative(),
    ref: z.number().int().nonnegative(),
    trailers: z.number().int().nonnegative(),
    remote: z.number().int().nonnegative(),
    foreignKey: z.number().int().nonnegative(),
    otherRepository: z.number().int().nonnegative(),
    lineage: z.number().int().nonnegative(),
  }),
  /** Earlier log ids this log replaced through signed `snodo audit reset`s. */
  lineage: z.array(z.string()),
  notChecked: z.array(z.string()),
});

const headRecordJsonSchema = z.object({
  log_id: z.string().regex(/^[0-9a-f]{32}$/),
  size: z.number().int().positive(),
  head_hash: z.string().regex(/^[0-9a-f]{64}$/),
});

/** `snodo audit reset --json`: the old head the new genesis records, where the old log went, the new log. */
export const auditResetJsonSchema = z.object({
  previous: headRecordJsonSchema.extend({
    source: z.enum(['log', 'checkpoint', 'log-prefix']),
    archived_as: z.string().optional(),
  }),
  superseded: z.array(headRecordJsonSchema),
  archivedAs: z.string().optional(),
  logId: z.string().regex(/^[0-9a-f]{32}$/),
  checkpoint: z.object({ log_id: z.string(), size: z.number().int().positive(), sig: z.string() }),
  warnings: z.array(z.string()),
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
