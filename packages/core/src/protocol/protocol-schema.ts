import { z } from 'zod';
import { nonBlankString, protocolConstraintSchema } from './protocol-constraint-schema.js';
import { protocolExecutionSchema } from './protocol-execution-schema.js';
import { protocolModeSchema } from './protocol-mode-schema.js';
import { protocolValidatorSchema } from './protocol-validator-schema.js';

/**
 * How verdicts of one phase combine (SPEC §5): `unanimous` (all pass), `majority` (more than half),
 * `quorum` (at least `quorum_threshold` of them), `any` (one). Warns withhold approval in every policy.
 */
export const disagreementPolicySchema = z.enum(['unanimous', 'majority', 'quorum', 'any']);

/** `unanimous`, `majority`, `quorum` or `any`. */
export type DisagreementPolicy = z.infer<typeof disagreementPolicySchema>;

/** A participant role. Documentation only: snodo reads roles for WF2 (unique ids) and nothing else. */
export const protocolRoleSchema = z.object({
  /** Unique id (WF2). */
  role_id: nonBlankString(),
  /** Human name. */
  name: z.string(),
  /** What the role may do, in the team's words. */
  permissions: z.array(z.string()).default([]),
  /** What the role is expected to do, in the team's words. */
  responsibilities: z.array(z.string()).default([]),
});

/** A role as loaded. */
export type ProtocolRole = z.infer<typeof protocolRoleSchema>;

/**
 * `.snodo/protocol.yml`: the rules a team wrote for its coders (SPEC §3). Field names are the file's own
 * snake_case names, identical to the Python original's, so its protocol files load unchanged. Unknown keys
 * are not part of the parsed value; the loader reports them.
 */
export const protocolSchema = z.object({
  /** Stable id of the protocol, recorded in the audit log. */
  protocol_id: nonBlankString(),
  /** Human name. */
  name: z.string(),
  /** Free-text version of the protocol file. */
  version: z.string({ error: 'must be a string; quote it: `version: "1.0.0"`' }).default('1.0.0'),
  /** Kinds of work; at least one, unique `mode_id`s. */
  modes: z.array(protocolModeSchema).min(1, { error: 'a protocol needs at least one mode' }),
  /** Gates, referenced by id from modes; unique `validator_id`s. */
  validators: z.array(protocolValidatorSchema).default([]),
  /** How verdicts combine. */
  disagreement_policy: disagreementPolicySchema.default('unanimous'),
  /** Share of passes `quorum` needs, between 0 and 1. */
  quorum_threshold: z.number().min(0).max(1).default(0.67),
  /** The mode used when `--mode` is absent and no classification happens. */
  initial_mode: nonBlankString(),
  /** Constraints checked in every mode. */
  global_constraints: z.array(protocolConstraintSchema).default([]),
  /** Participant roles (documentation). */
  roles: z.array(protocolRoleSchema).default([]),
  /** How runs execute and land. */
  execution: protocolExecutionSchema.prefault({}),
  /** Free-form data for tools and people; snodo passes it through. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});

/** A loaded protocol, defaults filled. */
export type Protocol = z.infer<typeof protocolSchema>;
