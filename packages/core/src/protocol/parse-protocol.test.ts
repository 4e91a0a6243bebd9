import { describe, expect, it } from 'vitest';
import { parseProtocol } from './parse-protocol.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';

/** Runs `parseProtocol` and returns the error it must throw. */
function invalid(text: string, options: Parameters<typeof parseProtocol>[1] = {}): ProtocolInvalidError {
  try {
    parseProtocol(text, { fileName: '.snodo/protocol.yml', ...options });
  } catch (error) {
    if (ProtocolInvalidError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the protocol to be rejected');
}

const minimal = `protocol_id: demo
name: Demo
modes:
  - mode_id: build
    name: Build
    tools: [edit]
    validators: [judge]
validators:
  - validator_id: judge
    validator_type: security
initial_mode: build
`;

describe('parseProtocol', () => {
  it('fills the defaults of the Python original and of SPEC §3', () => {
    const { protocol, warnings } = parseProtocol(minimal);
    expect(warnings).toEqual([]);
    expect(protocol.version).toBe('1.0.0');
    expect(protocol.disagreement_policy).toBe('unanimous');
    expect(protocol.quorum_threshold).toBe(0.67);
    expect(protocol.validators[0]).toMatchObject({
      evaluation_phase: 'pre_execute',
      criteria: [],
      tools: [],
    });
    expect(protocol.execution).toEqual({
      merge_strategy: 'merge',
      max_fix_attempts: 2,
      fix_failing_tests: false,
      coder_timeout_seconds: 1800,
      gate_concurrency: 4,
      sandbox: 'auto',
      sandbox_network: true,
      setup: 'auto',
      copy_into_workspace: [],
    });
    expect(protocol.global_constraints).toEqual([]);
  });

  it('reports three different problems at once, each with its line and column', () => {
    const text = `protocol_id: demo
name: Demo
modes:
  - mode_id: build
    name: Build
    tools: edit
    validators: [judge]
validators:
  - validator_id: judge
    validator_type: security
    evaluation_phase: later
initial_mode: deploy
`;
    const error = invalid(text);
    expect(error.code).toBe('PROTOCOL_INVALID');
    expect(error.errors.map((issue) => [issue.line, issue.column, issue.rule, issue.path])).toEqual([
      [6, 12, 'schema', 'modes[0].tools'],
      [11, 23, 'schema', 'validators[0].evaluation_phase'],
      [12, 15, 'WF3', 'initial_mode'],
    ]);
    expect(error.errors[0]?.message).toContain('expected a list, got "edit"');
    expect(error.errors[1]?.message).toContain('`pre_execute`, `post_execute`, `mode_transition`');
    expect(error.errors[2]?.message).toContain('initial_mode `deploy` is not a mode');
    const lines = error.message.split('\n');
    expect(lines).toContain('.snodo/protocol.yml:6:12: `modes[0].tools`: expected a list, got "edit"');
    expect(lines.filter((line) => line.startsWith('.snodo/protocol.yml:'))).toHaveLength(3);
    expect(error.message).toContain('snodo protocol validate');
  });

  it('points a missing required key at the mapping that lacks it', () => {
    const error = invalid(minimal.replace('    name: Build\n', ''));
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toMatchObject({ line: 4, column: 5, path: 'modes[0]' });
    expect(error.errors[0]?.message).toBe('`modes[0]`: missing required key `name`');
  });

  it('reports YAML syntax errors with their position and nothing else', () => {
    const error = invalid('protocol_id: demo\nname: [unclosed\nmodes: []\n');
    expect(error.issues.every((issue) => issue.rule === 'yaml')).toBe(true);
    expect(error.errors[0]?.line).toBeGreaterThanOrEqual(2);
    expect(error.errors[0]?.message).toMatch(/^YAML syntax error: /);
  });

  it('rejects a duplicated key instead of keeping the last one', () => {
    const error = invalid(`${minimal}name: Other\n`);
    expect(error.errors[0]).toMatchObject({ line: 12, rule: 'yaml' });
  });

  it('explains an empty file and a file that is not a mapping', () => {
    expect(invalid('').errors[0]?.message).toContain('snodo init');
    expect(invalid('- a\n- b\n').errors[0]?.message).toContain('must be a YAML mapping');
  });

  it('warns about an unknown key with a did-you-mean suggestion from the keys of its level', () => {
    const text = minimal.replace('    tools: [edit]', '    tools: [edit]\n    validatorz: [judge]');
    const { warnings } = parseProtocol(text, { fileName: 'p.yml' });
    expect(warnings).toEqual([
      {
        file: 'p.yml',
        line: 7,
        column: 5,
        path: 'modes[0].validatorz',
        message: 'unknown key `validatorz` (did you mean `validators`?); snodo ignores it',
        severity: 'warning',
        rule: 'unknown-key',
      },
    ]);
  });

  it('suggests nothing when no known key is close', () => {
    const { warnings } = parseProtocol(`${minimal}flavour: vanilla\n`);
    expect(warnings[0]?.message).toBe('unknown key `flavour`; snodo ignores it');
  });

  it('finds unknown keys at every level (top, execution, tooling, constraints)', () => {
    const text = `${minimal}execution:\n  merge_stratgy: squash\nglobal_constraints:\n  - constraint_id: c\n    description: d\n    predicate: no_secrets_in_diff\n    severty: warn\n`;
    const { warnings, protocol } = parseProtocol(text);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'unknown key `merge_stratgy` (did you mean `merge_strategy`?); snodo ignores it',
      'unknown key `severty` (did you mean `severity`?); snodo ignores it',
    ]);
    expect(protocol.execution.merge_strategy).toBe('merge');
    expect(protocol.global_constraints[0]?.severity).toBe('blocker');
  });

  it('turns unknown keys into errors under strict, and keeps the message and position', () => {
    const text = `${minimal}modse: []\n`;
    expect(parseProtocol(text).warnings).toHaveLength(1);
    const error = invalid(text, { strict: true });
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toMatchObject({ line: 12, column: 1, rule: 'unknown-key', severity: 'error' });
    expect(error.errors[0]?.message).toContain('did you mean `modes`?');
    expect(error.errors[0]?.message).toContain('--strict');
  });

  it('keeps unknown keys out of the parsed protocol', () => {
    const { protocol } = parseProtocol(`${minimal}modse: []\n`);
    expect(Object.keys(protocol)).not.toContain('modse');
  });

  it('refuses a write tool for a validator, naming the read-only tools', () => {
    const error = invalid(
      minimal.replace(
        '    validator_type: security',
        '    validator_type: security\n    tools: [read_file, write_file]',
      ),
    );
    expect(error.errors[0]).toMatchObject({ line: 11, column: 24, path: 'validators[0].tools[1]' });
    expect(error.errors[0]?.message).toContain('validators may never use write/exec tools');
  });

  it('accepts a test command as a string or an argv list, and nothing else', () => {
    const withCommand = (command: string) =>
      minimal.replace(
        '    validator_type: security',
        `    validator_type: quality\n    tooling:\n      test_command: ${command}`,
      );
    expect(parseProtocol(withCommand('npm test')).protocol.validators[0]?.tooling.test_command).toBe(
      'npm test',
    );
    expect(parseProtocol(withCommand('[pytest, -q]')).protocol.validators[0]?.tooling.test_command).toEqual([
      'pytest',
      '-q',
    ]);
    expect(invalid(withCommand('42')).errors[0]?.message).toContain(
      '`validators[0].tooling.test_command`: must be a command string',
    );
  });

  it('warns that mode_transition never runs, and loads the file', () => {
    const text = minimal.replace(
      '    validator_type: security',
      '    validator_type: security\n    evaluation_phase: mode_transition',
    );
    const { warnings } = parseProtocol(text);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ line: 11, rule: 'legacy' });
    expect(warnings[0]?.message).toContain('never runs');
  });

  it('includes warnings in the error when the load fails, marked as warnings', () => {
    const error = invalid(`${minimal}modse: []\ninitial_mode_: x\ndisagreement_policy: most\n`);
    expect(error.issues.filter((issue) => issue.severity === 'warning')).toHaveLength(2);
    expect(error.message).toContain('.snodo/protocol.yml:12:1: warning: unknown key `modse`');
    expect(error.message).toMatch(/\(1 error, 2 warnings\)/);
  });
});

describe('parseProtocol on hostile YAML', () => {
  it('refuses an alias bomb with an issue instead of expanding it', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 8; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const current = String.fromCharCode(97 + level);
      levels.push(`${current}: &${current} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    const error = invalid(levels.join('\n'));
    expect(error.errors[0]?.rule).toBe('yaml');
  });
});
