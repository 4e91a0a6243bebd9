import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture, TEST_PROTOCOL } from '../../testing/cli-fixture.js';

// Issue 13, the fix loop: a finding the coder cannot fix (no test command, a tool that is missing) never
// starts another coder attempt; a failing test it can fix still does. Attempts are counted as the audit
// log's `coder-start` events.

function coderStarts(fixture: CliFixture): number {
  const log = readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8');
  return log.split('\n').filter((line) => line.includes('"type":"coder-start"')).length;
}

/** The test protocol with its tests gate's tooling replaced and up to two fix attempts. */
function protocolWith(tooling: string, execution = ''): string {
  return TEST_PROTOCOL.replace(
    '    tooling:\n      test_command: [node, -e, "process.exit(0)"]\n',
    tooling,
  ).replace('max_fix_attempts: 0', `max_fix_attempts: 2${execution}`);
}

async function run(fixture: CliFixture) {
  const result = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'mock/pass', '--json']);
  return {
    exitCode: result.exitCode,
    all: result.all,
    result: runResultJsonSchema.parse(JSON.parse(result.stdout)),
  };
}

describe('snodo run: the fix loop only asks the coder for what it can fix', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('a repository without tests: the tests gate warns, the job escalates after one attempt', async () => {
    fixture = createCliFixture({ protocol: protocolWith('') });
    const { exitCode, all, result } = await run(fixture);
    expect(exitCode, all).toBe(1);
    expect(result.outcome).toBe('escalated');
    expect(coderStarts(fixture)).toBe(1);
    expect(result.attempts).toBe(1);
  });

  it('a gate command that is not found: one attempt, and an outage (exit 3)', async () => {
    fixture = createCliFixture({
      protocol: protocolWith(
        '    tooling:\n      test_command: [snodo-no-such-tool, --run]\n',
        '\n  fix_failing_tests: true',
      ),
    });
    const { exitCode, all, result } = await run(fixture);
    expect(exitCode, all).toBe(3);
    expect(result.summary).toContain('command not found: snodo-no-such-tool');
    expect(coderStarts(fixture)).toBe(1);
  });

  it('a failing test the coder may fix still gets the fix attempts (the count is not always one)', async () => {
    fixture = createCliFixture({
      protocol: protocolWith(
        '    tooling:\n      test_command: [node, -e, "process.exit(1)"]\n',
        '\n  fix_failing_tests: true',
      ),
    });
    const { exitCode, all } = await run(fixture);
    expect(exitCode, all).toBe(1);
    expect(coderStarts(fixture)).toBe(3);
  });
});
