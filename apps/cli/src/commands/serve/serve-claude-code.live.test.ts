import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson, SNODO_BIN } from '../../testing/cli-fixture.js';

// Tier 2 (SPEC §10, §14): the real Claude Code, the pinned devDependency of @snodo/coder-claude-code, as
// the MCP client of `snodo serve` over stdio, its model the fake LLM on 127.0.0.1 scripted to call
// snodo_run_task. Claude Code 2.1 defers MCP tools behind its tool search unless ENABLE_TOOL_SEARCH=false.
const live = process.env.SNODO_COMPAT_LIVE === '1';
const claudeBinary = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'packages',
  'coder-claude-code',
  'node_modules',
  '.bin',
  'claude',
);
const run = promisify(execFile);

describe.skipIf(!live)('snodo serve with Claude Code as its MCP client (set SNODO_COMPAT_LIVE=1)', () => {
  let fixture: CliFixture | undefined;
  let fake: FakeLlm | undefined;
  afterEach(async () => {
    await fake?.close();
    fixture?.cleanup();
  });

  it('[slow] Claude Code calls snodo_run_task and gets the job id back; the job runs governed and is audited', async () => {
    fake = await startFakeLlm({
      script: [
        {
          text: 'Starting a governed task.',
          toolCall: {
            name: 'mcp__snodo__snodo_run_task',
            input: { task: 'Add a CONTRIBUTING.md', mock: true },
          },
        },
        { text: 'The job is running.' },
      ],
    });
    fixture = createCliFixture();
    const mcpConfig = join(fixture.directory, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          snodo: { type: 'stdio', command: process.execPath, args: [SNODO_BIN, 'serve'], env: fixture.env },
        },
      }),
    );
    const result = await run(
      claudeBinary,
      [
        '-p',
        'Use snodo to add a CONTRIBUTING.md.',
        '--mcp-config',
        mcpConfig,
        '--strict-mcp-config',
        '--allowedTools',
        'mcp__snodo__snodo_run_task',
        '--model',
        'claude-sonnet-4-5',
        '--output-format',
        'json',
      ],
      {
        cwd: fixture.root,
        env: {
          ...fixture.env,
          ANTHROPIC_BASE_URL: fake.baseUrl.anthropic,
          ANTHROPIC_API_KEY: 'sk-ant-live-check-0123456789',
          CLAUDE_CONFIG_DIR: join(fixture.home, '.claude'),
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          ENABLE_TOOL_SEARCH: 'false',
        },
        timeout: 120_000,
      },
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ is_error: false, result: 'The job is running.' });

    const { jobs } = taskListJsonSchema.parse(parseJson(await fixture.snodo(['task', 'list', '--json'])));
    expect(jobs).toHaveLength(1);
    const jobId = jobs[0]?.jobId ?? '';
    // The tool's answer, with the job id, went back to the model in Claude Code's next request.
    expect(fake.requestsContaining(jobId).length).toBeGreaterThan(0);
    expect(fake.problems).toEqual([]);
    const wait = await fixture.snodo(['job', 'wait', jobId, '--timeout', '90']);
    expect(wait.exitCode, wait.all).toBe(0);
    const audit = await fixture.snodo(['audit', 'show', '--json']);
    expect(audit.stdout).toContain('"tool": "snodo_run_task"');
    expect(audit.stdout).toMatch(/"client_name": "claude-code"/);
  });
});
