import { describe, expect, it } from 'vitest';
import { parseProtocol } from './parse-protocol.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { copyPatternProblem } from './protocol-setup-schema.js';

const base = `protocol_id: demo
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

function withExecution(execution: string) {
  return `${base}execution:\n${execution}`;
}

function invalid(text: string): ProtocolInvalidError {
  try {
    parseProtocol(text, { fileName: '.snodo/protocol.yml' });
  } catch (error) {
    if (ProtocolInvalidError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the protocol to be rejected');
}

describe('execution.setup and execution.copy_into_workspace', () => {
  it('default to `auto` detection and nothing copied when absent', () => {
    const { protocol, warnings } = parseProtocol(base);
    expect(warnings).toEqual([]);
    expect(protocol.execution.setup).toBe('auto');
    expect(protocol.execution.copy_into_workspace).toEqual([]);
  });

  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    ['"npm ci && npm run build"', 'npm ci && npm run build'],
    ['[pnpm, install, --frozen-lockfile]', ['pnpm', 'install', '--frozen-lockfile']],
  ])('accepts setup: %s in the command-gate form', (written, expected) => {
    const { protocol } = parseProtocol(withExecution(`  setup: ${written}\n`));
    expect(protocol.execution.setup).toEqual(expected);
  });

  it('accepts the mapping form with a time limit, `auto` included', () => {
    const { protocol, warnings } = parseProtocol(
      withExecution(
        '  setup:\n    command: auto\n    timeout_seconds: 1200\n  copy_into_workspace: [.env]\n',
      ),
    );
    expect(protocol.execution.setup).toEqual({ command: 'auto', timeout_seconds: 1200 });
    expect(protocol.execution.copy_into_workspace).toEqual(['.env']);
    expect(warnings).toEqual([]);
  });

  it('refuses a setup that is not a command, with its line and column', () => {
    const error = invalid(withExecution('  setup: 12\n'));
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toMatchObject({ line: 13, column: 10, path: 'execution.setup' });
    expect(error.errors[0]?.message).toContain('`auto`, `none`, a command string');
  });

  it('refuses an unknown key and a bad time limit in the mapping form', () => {
    const error = invalid(withExecution('  setup:\n    command: [make]\n    timeout: 10\n'));
    expect(error.errors[0]?.path).toBe('execution.setup');
    const negative = invalid(withExecution('  setup:\n    command: [make]\n    timeout_seconds: -1\n'));
    expect(negative.errors.map((issue) => issue.line)).toContain(15);
  });

  it('refuses absolute, climbing and .git patterns in copy_into_workspace, each at its position', () => {
    const error = invalid(
      withExecution(
        '  copy_into_workspace:\n    - .env\n    - /etc/passwd\n    - ../secrets/.env\n    - .git/config\n',
      ),
    );
    expect(error.errors.map((issue) => [issue.line, issue.column, issue.path])).toEqual([
      [15, 7, 'execution.copy_into_workspace[1]'],
      [16, 7, 'execution.copy_into_workspace[2]'],
      [17, 7, 'execution.copy_into_workspace[3]'],
    ]);
    expect(error.errors[0]?.message).toContain('is absolute; write it relative to the repository root');
    expect(error.errors[1]?.message).toContain('climbs out of the repository');
    expect(error.message).toContain('.snodo/protocol.yml:16:7:');
  });

  it('names the problem of each bad pattern and passes good ones', () => {
    expect(copyPatternProblem('config/*.local.json')).toBeUndefined();
    expect(copyPatternProblem('**/.env')).toBeUndefined();
    expect(copyPatternProblem('a/./../../b')).toContain('..');
    expect(copyPatternProblem('C:\\x')).toContain('absolute');
    expect(copyPatternProblem('~/x')).toContain('absolute');
    expect(copyPatternProblem('')).toBe('must not be empty');
  });
});
