import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture, SNODO_BIN } from './testing/cli-fixture.js';

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

/** A protocol whose post-execute command gate takes a few seconds, so the live line can be seen. */
const SLOW_PROTOCOL = `protocol_id: slow
name: Slow
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, slow-tests]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: slow-tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: [node, -e, "setTimeout(() => {}, 3000)"]
disagreement_policy: unanimous
`;

// The stage's own time, then the job's: `post-gates (attempt 1) · 2.1s (job 4.3s) · 0 tokens`.
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] post-gates \(attempt 1\) · \d+(\.\d)?m?s \(job \d+(\.\d)?m?s\) · 0 tokens/;

// Skipped only where tmux is not installed: this test needs a real terminal to draw on.
describe.skipIf(!hasTmux)('snodo run in a terminal (tmux)', () => {
  let fixture: CliFixture | undefined;
  let socket: string | undefined;
  afterEach(() => {
    if (socket !== undefined) spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    fixture?.cleanup();
  });

  it('shows a live spinner with the stage, elapsed time and tokens, then a readable summary', async () => {
    fixture = createCliFixture({ protocol: SLOW_PROTOCOL });
    socket = `snodo-test-${process.pid}-${Date.now()}`;
    const script = join(fixture.directory, 'run-in-terminal.sh');
    const exports = Object.entries({ ...fixture.env, NO_COLOR: '', TERM: 'xterm-256color' })
      .map(([name, value]) => `export ${name}='${value.replace(/'/g, "'\\''")}'`)
      .join('\n');
    writeFileSync(
      script,
      `#!/bin/sh\n${exports}\nunset NO_COLOR\ncd '${fixture.root}'\n'${process.execPath}' '${SNODO_BIN}' run 'Add a file from the terminal' --mock\necho "SNODO-EXIT=$?"\nsleep 120\n`,
    );
    chmodSync(script, 0o755);
    execFileSync('tmux', [
      '-L',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      '120',
      '-y',
      '40',
      '-s',
      'snodo',
      script,
    ]);
    const capture = () =>
      execFileSync('tmux', ['-L', socket ?? '', 'capture-pane', '-p', '-t', 'snodo'], { encoding: 'utf8' });

    let sawSpinner = false;
    let screen = '';
    for (let tries = 0; tries < 600 && !screen.includes('SNODO-EXIT='); tries += 1) {
      await sleep(100);
      screen = capture();
      if (SPINNER.test(screen)) sawSpinner = true;
    }
    expect(screen).toContain('SNODO-EXIT=0');
    expect(sawSpinner, `no spinner line seen; last screen:\n${screen}`).toBe(true);

    // The final screen: finished stages above, the live line gone, the summary readable.
    const jobId = /snodo (j_[a-z0-9]+): merged into main/.exec(screen)?.[1];
    expect(jobId, screen).toBeDefined();
    expect(screen).toMatch(/• execute \(attempt 1, Mock coder\) \d+(\.\d+)?m?s/);
    expect(screen).toMatch(/gate slow-tests: pass/);
    expect(screen).toMatch(/merge commit [0-9a-f]{10} on main/);
    expect(screen).not.toMatch(SPINNER);
    // No escape sequence leaks as text, and no line ran past the terminal's width.
    expect(screen).not.toMatch(/\[2K|\u001b/);
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });
});
