import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProtocol } from './load-protocol.js';
import { constraintsForMode } from './protocol-queries.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const load = (name: string) => loadProtocol(join(fixtures, name));

describe("protocol files in the Python original's format", () => {
  it.each(readdirSync(fixtures).filter((name) => name.startsWith('original-')))(
    '%s loads unchanged (warnings allowed, no errors)',
    async (name) => {
      const { protocol, warnings } = await load(name);
      expect(protocol.modes.length).toBeGreaterThan(0);
      expect(warnings.every((warning) => warning.severity === 'warning')).toBe(true);
    },
  );

  it.each(readdirSync(fixtures).filter((name) => name.startsWith('original-')))(
    '%s also loads under --strict: its legacy keys are known, not unknown',
    async (name) => {
      await expect(loadProtocol(join(fixtures, name), { strict: true })).resolves.toBeDefined();
    },
  );

  it('team shape: keeps its modes and phases, and explains judges_spec and max_recovery_depth', async () => {
    const { protocol, warnings } = await load('original-team.yml');
    expect(protocol.protocol_id).toBe('default');
    expect(protocol.modes.map((mode) => mode.mode_id)).toEqual(['producer', 'reviewer', 'planner']);
    expect(protocol.modes[0]?.transitions).toEqual({ complete: 'reviewer' });
    expect(protocol.validators.find((v) => v.validator_id === 'acceptance')?.tools).toHaveLength(6);
    expect(protocol.execution.max_recovery_depth).toBe(3);
    expect(warnings.map((warning) => [warning.rule, warning.path])).toEqual([
      ['legacy', 'validators[3].judges_spec'],
      ['legacy', 'execution.max_recovery_depth'],
    ]);
    expect(warnings[1]?.message).toContain('max_fix_attempts');
  });

  it('2+n shape: keeps predicate params and the expression summaries', async () => {
    const { protocol } = await load('original-2-plus-n.yml');
    const scope = protocol.global_constraints.find(
      (constraint) => constraint.constraint_id === 'files_in_scope',
    );
    expect(scope?.params).toEqual({ scope_paths: ['src/**', 'tests/**', 'docs/**'] });
    expect(scope?.expression).toBe('artifact_paths all match scope_paths');
    expect(protocol.validators.find((v) => v.validator_id === 'quality')?.tooling).toEqual({
      test_command: 'pytest -q',
      timeout: 300,
    });
  });

  it('first format: loads severity_threshold, expression-only and validator-level constraints with warnings', async () => {
    const { protocol, warnings } = await load('original-severity-threshold.yml');
    expect(protocol.validators.every((validator) => validator.evaluation_phase === 'pre_execute')).toBe(true);
    expect(protocol.metadata).toEqual({ author: 'Example Team', tags: ['example', 'sdlc'] });
    expect(warnings.map((warning) => [warning.rule, warning.path, warning.line])).toEqual([
      ['legacy', 'severity_threshold', 9],
      ['legacy', 'validators[0].severity_threshold', 26],
      ['legacy', 'validators[0].constraints', 27],
      ['legacy', 'validators[1].severity_threshold', 36],
    ]);
    expect(warnings[0]?.message).toContain('severity_cap');
    expect(constraintsForMode(protocol, 'planning').map((constraint) => constraint.constraint_id)).toEqual([
      'small_change',
      'plan_present',
      'acyclic_imports',
    ]);
  });

  it('intent shape: policy any with warn-capped judges', async () => {
    const { protocol } = await load('original-intent.yml');
    expect(protocol.disagreement_policy).toBe('any');
    expect(protocol.validators.map((validator) => validator.severity_cap)).toEqual(['warn', 'warn']);
  });
});
