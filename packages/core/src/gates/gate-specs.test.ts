import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { GateConstraintSpec } from './gate-constraint-spec.js';
import type { GateValidatorSpec } from './gate-validator-spec.js';
import type { DisagreementPolicy } from './policy/evaluate-policy.js';

// A stand-in for the protocol schema (written elsewhere, same snake_case field names), to prove that its
// parsed types can be handed to the gates as they are.
const validatorSchema = z.object({
  validator_id: z.string(),
  validator_type: z.string(),
  evaluation_phase: z.enum(['pre_execute', 'post_execute', 'mode_transition']).default('pre_execute'),
  criteria: z.array(z.string()).default([]),
  tooling: z
    .looseObject({
      test_command: z.union([z.string(), z.array(z.string())]).optional(),
      timeout: z.number().optional(),
    })
    .default({}),
  severity_cap: z.enum(['pass', 'warn', 'blocker']).nullable().optional(),
  model: z.string().nullable().optional(),
  tools: z.array(z.string()).default([]),
});
const constraintSchema = z.object({
  constraint_id: z.string(),
  description: z.string(),
  predicate: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  severity: z.enum(['pass', 'warn', 'blocker']).default('blocker'),
});
const policySchema = z.enum(['unanimous', 'majority', 'quorum', 'any']);

describe('gate input types', () => {
  it('accept the protocol schema output structurally', () => {
    expectTypeOf<z.infer<typeof validatorSchema>>().toExtend<GateValidatorSpec>();
    expectTypeOf<z.infer<typeof constraintSchema>>().toExtend<GateConstraintSpec>();
    expectTypeOf<z.infer<typeof policySchema>>().toExtend<DisagreementPolicy>();
    const parsed: GateValidatorSpec = validatorSchema.parse({
      validator_id: 'tests',
      validator_type: 'quality',
      tooling: { test_command: ['pytest', '-q'], timeout: 60 },
    });
    expect(parsed.tooling?.test_command).toEqual(['pytest', '-q']);
  });
});
