import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type LoadedProtocol, parseProtocol } from './parse-protocol.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import type { SourceIssue } from './source-issue.js';

type Plain = Record<string, unknown>;

/** A well-formed protocol as plain data; each test breaks one thing. */
function base(): Plain {
  return {
    protocol_id: 'wf',
    name: 'WF',
    modes: [
      { mode_id: 'producer', name: 'Producer', tools: ['edit', 'dispatch'], validators: ['plan', 'review'] },
      { mode_id: 'reviewer', name: 'Reviewer', tools: ['review', 'merge'], validators: ['review'] },
    ],
    validators: [
      { validator_id: 'plan', validator_type: 'planning', evaluation_phase: 'pre_execute' },
      { validator_id: 'review', validator_type: 'security', evaluation_phase: 'post_execute' },
    ],
    initial_mode: 'producer',
    roles: [
      { role_id: 'lead', name: 'Lead' },
      { role_id: 'dev', name: 'Developer' },
    ],
    global_constraints: [{ constraint_id: 'no-secrets', description: 'd', predicate: 'no_secrets_in_diff' }],
  };
}

function load(protocol: Plain, options: Parameters<typeof parseProtocol>[1] = {}): LoadedProtocol {
  return parseProtocol(stringify(protocol), { fileName: 'wf.yml', ...options });
}

function errorsOf(protocol: Plain, options: Parameters<typeof parseProtocol>[1] = {}): SourceIssue[] {
  try {
    load(protocol, options);
  } catch (error) {
    if (ProtocolInvalidError.isInstance(error)) return [...error.errors];
    throw error;
  }
  return [];
}

function modes(protocol: Plain): Plain[] {
  return protocol.modes as Plain[];
}

describe('well-formedness', () => {
  it('accepts the base protocol with no warnings', () => {
    expect(load(base()).warnings).toEqual([]);
  });

  it('WF1: rejects two modes sharing a tool, naming both modes and the shared tools', () => {
    const protocol = base();
    modes(protocol)[1]!.tools = ['review', 'edit', 'merge', 'dispatch'];
    modes(protocol)[1]!.validators = ['plan'];
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => issue.rule)).toEqual(['WF1']);
    expect(errors[0]?.message).toContain('modes `producer` and `reviewer` share tools `dispatch`, `edit`');
    expect(errors[0]?.path).toBe('modes[1].tools[1]');
  });

  it('WF2: rejects a duplicated role id and accepts unique ones', () => {
    const protocol = base();
    (protocol.roles as Plain[])[1]!.role_id = 'lead';
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([['WF2', 'roles[1].role_id']]);
    expect(errors[0]?.message).toContain('role id `lead` is already used by roles[0]');
  });

  it('WF3: reports an undefined validator, a missing initial mode and a dispatching mode without a pre-execute gate together', () => {
    const protocol = base();
    modes(protocol)[0]!.validators = ['review', 'reveiw-typo'];
    protocol.initial_mode = 'producr';
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => issue.rule)).toEqual(['WF3', 'WF3', 'WF3']);
    const messages = errors.map((issue) => issue.message).join('\n');
    expect(messages).toContain('mode `producer` uses validator `reveiw-typo`, which is not defined');
    expect(messages).toContain(
      'mode `producer` can dispatch (tool `dispatch`) but runs no pre_execute validator',
    );
    expect(messages).toContain('initial_mode `producr` is not a mode (did you mean `producer`?)');
  });

  it('WF3: a mode without dispatch needs no pre-execute gate', () => {
    const protocol = base();
    modes(protocol)[0]!.tools = ['edit'];
    modes(protocol)[0]!.validators = ['review'];
    expect(errorsOf(protocol)).toEqual([]);
  });

  it('WF4: majority needs two validators', () => {
    const protocol = base();
    protocol.disagreement_policy = 'majority';
    expect(errorsOf(protocol)).toEqual([]);
    protocol.validators = [(protocol.validators as Plain[])[0]];
    modes(protocol)[0]!.validators = ['plan'];
    modes(protocol)[1]!.validators = ['plan'];
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([['WF4', 'disagreement_policy']]);
    expect(errors[0]?.message).toContain('needs at least 2 validators; this protocol defines 1');
  });

  it('WF4: quorum with fewer than three validators loads with a warning', () => {
    const protocol = base();
    protocol.disagreement_policy = 'quorum';
    const { warnings } = load(protocol);
    expect(warnings.map((warning) => warning.rule)).toEqual(['WF4']);
    expect(warnings[0]?.message).toContain('a quorum needs at least 3');
  });

  it('WF4: a protocol without validators is rejected', () => {
    const protocol = base();
    protocol.validators = [];
    modes(protocol)[0]!.validators = [];
    modes(protocol)[0]!.tools = ['edit'];
    modes(protocol)[1]!.validators = [];
    expect(errorsOf(protocol).map((issue) => issue.rule)).toEqual(['WF4']);
  });

  it('WF5: constraint ids are unique across global, mode and validator constraints', () => {
    const protocol = base();
    modes(protocol)[0]!.constraints = [
      { constraint_id: 'scope', description: 'd', predicate: 'files_in_scope' },
    ];
    (protocol.validators as Plain[])[1]!.constraints = [
      { constraint_id: 'no-secrets', description: 'd', expression: 'legacy text' },
    ];
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([
      ['WF5', 'validators[1].constraints[0].constraint_id'],
    ]);
    expect(errors[0]?.message).toContain(
      'constraint id `no-secrets` is already used by global_constraints[0]',
    );
  });

  it('WF5: predicates must be known; the caller may register more', () => {
    const protocol = base();
    (protocol.global_constraints as Plain[])[0]!.predicate = 'no_secret_in_diff';
    (protocol.global_constraints as Plain[]).push({
      constraint_id: 'lint',
      description: 'd',
      predicate: 'lint_clean',
    });
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => issue.rule)).toEqual(['WF5', 'WF5']);
    expect(errors[0]?.message).toContain('did you mean `no_secrets_in_diff`?');
    expect(errors[1]?.message).toContain('unknown predicate `lint_clean`');
    const fixed = base();
    (fixed.global_constraints as Plain[]).push({
      constraint_id: 'lint',
      description: 'd',
      predicate: 'lint_clean',
    });
    expect(errorsOf(fixed, { knownPredicates: ['lint_clean'] })).toEqual([]);
  });

  it('WF5: a constraint needs a predicate or an expression', () => {
    const protocol = base();
    (protocol.global_constraints as Plain[]).push({ constraint_id: 'empty', description: 'says nothing' });
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([['WF5', 'global_constraints[1]']]);
    expect(errors[0]?.message).toContain('has neither `predicate` nor `expression`');
  });

  it('rejects duplicated mode and validator ids', () => {
    const protocol = base();
    modes(protocol)[1]!.mode_id = 'producer';
    (protocol.validators as Plain[]).push({ validator_id: 'plan', validator_type: 'llm' });
    const errors = errorsOf(protocol);
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([
      ['unique-ids', 'modes[1].mode_id'],
      ['unique-ids', 'validators[2].validator_id'],
    ]);
    expect(errors[1]?.message).toContain('validator_id `plan` is already used by validators[0]');
  });

  it("checks a mode's coder against the registered coders only when the caller passes them", () => {
    const protocol = base();
    modes(protocol)[0]!.coder = 'mokc';
    expect(errorsOf(protocol)).toEqual([]);
    const errors = errorsOf(protocol, { registeredCoders: ['mock', 'direct'] });
    expect(errors.map((issue) => [issue.rule, issue.path])).toEqual([['coder', 'modes[0].coder']]);
    expect(errors[0]?.message).toContain('coder `mokc`, which is not registered (did you mean `mock`?)');
    expect(errors[0]?.message).toContain('registered coders: `mock`, `direct`');
    modes(protocol)[0]!.coder = 'mock';
    expect(errorsOf(protocol, { registeredCoders: ['mock', 'direct'] })).toEqual([]);
  });

  it('reports every violation of every rule in one error, each at its own line', () => {
    const protocol = base();
    modes(protocol)[1]!.tools = ['review', 'edit'];
    (protocol.roles as Plain[])[1]!.role_id = 'lead';
    protocol.initial_mode = 'nowhere';
    protocol.disagreement_policy = 'majority';
    protocol.validators = [(protocol.validators as Plain[])[0]];
    modes(protocol)[0]!.validators = ['plan'];
    modes(protocol)[1]!.validators = ['plan'];
    (protocol.global_constraints as Plain[])[0]!.predicate = 'unknown_thing';
    const errors = errorsOf(protocol);
    expect(new Set(errors.map((issue) => issue.rule))).toEqual(new Set(['WF1', 'WF2', 'WF3', 'WF4', 'WF5']));
    expect(new Set(errors.map((issue) => issue.line)).size).toBe(errors.length);
  });
});
