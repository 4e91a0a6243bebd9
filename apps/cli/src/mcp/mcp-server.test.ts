import type { Client } from '@modelcontextprotocol/client';
import { readRepositoryAudit } from '@snodo/core';
import { describe, expect, it, type TestContext } from 'vitest';
import { servedMode } from '../commands/serve/serve-action.js';
import { type CliFixture, createCliFixture, TEST_PROTOCOL } from '../testing/cli-fixture.js';
import { createJobStarter, type JobStarter } from './start-governed-job.js';
import { callOk, connectTestClient, fixtureContext, waitForJob } from './testing/mcp-test-client.js';

// `snodo serve`'s tools through the SDK's in-memory transport and a real v2 client, in a real repository,
// with jobs run by the mock coder in background processes, as `snodo run --background` starts them (SPEC §14).

/** Producer can run tasks; reviewer only reviews and decides (separation of duties, WF1). */
const TWO_MODES = `${TEST_PROTOCOL.replace(
  '    validators: [task-review, security, tests]\n',
  '    validators: [task-review, security, tests]\n  - mode_id: reviewer\n    name: Reviewer\n    tools: [review, approve]\n    validators: [security]\n',
)}`;

/** One mode that runs and merges, whose pre-execute judge passes on its own, so `mock/warn` escalates after the coder. */
const RUN_AND_MERGE = TEST_PROTOCOL.replace(
  'tools: [edit, dispatch]',
  'tools: [edit, dispatch, merge]',
).replace('  - validator_id: task-review\n', '  - validator_id: task-review\n    model: mock/pass\n');

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/**
 * One test's server side: `open` connects a client to a new session of a server for a mode, in the test's
 * repository (made by the first `open`, with that protocol) and with one job starter for all its sessions.
 * Everything is closed and removed when the test ends; the hook comes from the test's own context because
 * the tests run at the same time.
 */
function mcpHarness(context: TestContext) {
  let fixture: CliFixture | undefined;
  let jobs: JobStarter | undefined;
  const clients: Client[] = [];
  context.onTestFinished(async () => {
    for (const client of clients.splice(0)) await client.close();
    fixture?.cleanup();
  });
  async function open(
    protocol: string,
    modeId: string,
    options: { approver?: string; elicitation?: 'accept' | 'decline' } = {},
  ) {
    fixture ??= createCliFixture({ protocol });
    const toolContext = fixtureContext(fixture);
    jobs ??= createJobStarter(toolContext);
    const connected = await connectTestClient({
      context: toolContext,
      // The mode as `snodo serve --mode` resolves it.
      mode: await servedMode(toolContext, modeId),
      jobs,
      ...options,
    });
    clients.push(connected.client);
    return connected;
  }
  const repository = (): CliFixture => {
    if (fixture === undefined) throw new Error('open a session first');
    return fixture;
  };
  return { open, fixture: repository };
}

// The tests run at the same time: each has its own repository, and the slow ones wait on background jobs.
describe.concurrent('snodo serve (in-memory transport)', () => {
  it('offers a producing mode its run tools and the reading tools, none that edits files, each documented', async (context) => {
    const { open } = mcpHarness(context);
    const { client } = await open(TEST_PROTOCOL, 'producer', { approver: 'Ada' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'snodo_run_task',
      'snodo_dry_run',
      'snodo_job_status',
      'snodo_task_list',
      'snodo_task_show',
      'snodo_task_diff',
      'snodo_audit_verify',
      'snodo_protocol_validate',
      'snodo_coders',
    ]);
    for (const tool of tools) {
      expect(tool.name).not.toMatch(/edit|write|file|approve/);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(120);
      expect(tool.inputSchema.type).toBe('object');
    }
    const run = tools.find((tool) => tool.name === 'snodo_run_task');
    expect(run?.inputSchema.required).toEqual(['task']);
    expect(run?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(run?.description).toContain('j_');
    const status = tools.find((tool) => tool.name === 'snodo_job_status');
    expect(status?.annotations?.readOnlyHint).toBe(true);
    expect(JSON.stringify(status?.inputSchema)).toContain('^j_[0-9a-z]{6,32}$');
  });

  it('offers a mode without edit or dispatch no run tool, and approval only with an approver', async (context) => {
    const { open } = mcpHarness(context);
    const { client } = await open(TWO_MODES, 'reviewer');
    const names = await toolNames(client);
    expect(names).not.toContain('snodo_run_task');
    expect(names).not.toContain('snodo_dry_run');
    expect(names).not.toContain('snodo_task_approve');
    expect(names).toContain('snodo_task_diff');
    await expect(
      client.callTool({ name: 'snodo_run_task', arguments: { task: 'x', mock: true } }),
    ).rejects.toThrow('Tool snodo_run_task not found');

    const withApprover = await open(TWO_MODES, 'reviewer', { approver: 'Ada' });
    const approving = await withApprover.client.listTools();
    const approve = approving.tools.find((tool) => tool.name === 'snodo_task_approve');
    expect(approve?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(approving.tools.map((tool) => tool.name)).toContain('snodo_task_reject');
  });

  it('runs a job that returns its id at once, followed to the end, its diff read, every call audited with the client', async (context) => {
    const { open, fixture } = mcpHarness(context);
    const { client, session } = await open(TEST_PROTOCOL, 'producer');
    const started = await callOk(client, 'snodo_run_task', { task: 'Add a CONTRIBUTING.md', mock: true });
    expect(started).toMatchObject({ status: 'running', mode: 'producer' });
    const jobId = String(started.job_id);
    expect(jobId).toMatch(/^j_[0-9a-z]{6,32}$/);
    const ended = await waitForJob(client, jobId);
    expect(ended).toMatchObject({ status: 'done', outcome: 'merged', finished: true });

    const diff = await callOk(client, 'snodo_task_diff', { job_id: jobId });
    expect(diff.files).toEqual([expect.objectContaining({ path: `snodo-mock/${jobId}.md` })]);
    expect(String(diff.patch)).toContain(`+++ b/snodo-mock/${jobId}.md`);
    const list = await callOk(client, 'snodo_task_list');
    expect(list.jobs).toEqual([expect.objectContaining({ job_id: jobId, status: 'done' })]);
    const verified = await callOk(client, 'snodo_audit_verify');
    expect(verified.ok).toBe(true);
    const state = await client.readResource({ uri: `snodo://jobs/${jobId}` });
    expect(JSON.parse(String((state.contents[0] as { text: string }).text))).toMatchObject({
      jobId,
      status: 'done',
    });
    const head = await client.readResource({ uri: 'snodo://audit/head' });
    expect(JSON.parse(String((head.contents[0] as { text: string }).text))).toMatchObject({ verified: true });

    const calls = (
      await readRepositoryAudit({ cwd: fixture().root, env: fixture().env, homeDirectory: fixture().home })
    )
      .filter((event) => event.type === 'mcp-tool-call')
      .map((event) => event.data as Record<string, unknown>);
    const jobStart = (
      await readRepositoryAudit({ cwd: fixture().root, env: fixture().env, homeDirectory: fixture().home })
    ).find((event) => event.type === 'job-start');
    expect(jobStart?.actor).toBe('mcp:test-host');
    expect(calls[0]).toMatchObject({
      tool: 'snodo_run_task',
      client_name: 'test-host',
      client_version: '1.2.3',
      session: session.id,
      transport: 'memory',
      outcome: 'ok',
      job_id: jobId,
    });
    expect(calls.map((call) => call.tool)).toEqual(
      expect.arrayContaining([
        'snodo_job_status',
        'snodo_task_diff',
        'snodo_task_list',
        'snodo_audit_verify',
      ]),
    );
  });

  it('plans without running, lists coders and validates the protocol, creating no job', async (context) => {
    const { open } = mcpHarness(context);
    const { client } = await open(TEST_PROTOCOL, 'producer');
    const { plan } = (await callOk(client, 'snodo_dry_run', {
      task: 'Add a CONTRIBUTING.md',
      mock: true,
      max_cost_usd: 0.5,
      max_tokens: 20000,
    })) as {
      plan: {
        mode: { value: string };
        coder: { value: string };
        readiness: { ready: boolean };
        budget: unknown;
      };
    };
    expect(plan).toMatchObject({
      mode: { value: 'producer' },
      coder: { value: 'mock' },
      readiness: { ready: true },
      // The budget a host agent asks for is the run's own (the same field as --max-cost / --max-tokens).
      budget: { maxCostUsd: { value: 0.5, source: 'flag' }, maxTokens: { value: 20000, source: 'flag' } },
    });
    const { coders } = (await callOk(client, 'snodo_coders')) as {
      coders: { id: string; installed: boolean; reason?: string }[];
    };
    expect(coders).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'mock', installed: true })]),
    );
    expect(await callOk(client, 'snodo_protocol_validate')).toMatchObject({ valid: true, errors: 0 });
    const protocol = await client.readResource({ uri: 'snodo://protocol' });
    expect(protocol.contents[0]).toMatchObject({ text: TEST_PROTOCOL });
    expect((await callOk(client, 'snodo_task_list')).jobs).toEqual([]);
  });

  it('refuses bad input before a job exists, with the typed error, and audits the refusal', async (context) => {
    const { open, fixture } = mcpHarness(context);
    const { client } = await open(TEST_PROTOCOL, 'producer');
    const result = await client.callTool({ name: 'snodo_run_task', arguments: { task: '   ', mock: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'TASK_EMPTY', exitCode: 2 });
    expect((await callOk(client, 'snodo_task_list')).jobs).toEqual([]);
    const events = await readRepositoryAudit({
      cwd: fixture().root,
      env: fixture().env,
      homeDirectory: fixture().home,
    });
    expect(events.find((event) => event.type === 'mcp-tool-call')?.data).toMatchObject({
      tool: 'snodo_run_task',
      outcome: 'error',
      error_code: 'TASK_EMPTY',
    });
  });

  it('never lets a session approve or reject the job it started; another session asks the human first', async (context) => {
    const { open } = mcpHarness(context);
    const first = await open(RUN_AND_MERGE, 'producer', { approver: 'Ada' });
    const started = await callOk(first.client, 'snodo_run_task', {
      task: 'Add a doubtful file',
      mock: true,
      model: 'mock/warn',
    });
    const jobId = String(started.job_id);
    expect(await waitForJob(first.client, jobId)).toMatchObject({ status: 'halted', outcome: 'escalated' });

    for (const name of ['snodo_task_approve', 'snodo_task_reject']) {
      const own = await first.client.callTool({ name, arguments: { job_id: jobId, reason: 'looks fine' } });
      expect(own.isError).toBe(true);
      expect(own.structuredContent).toMatchObject({ refused: true });
      expect(String((own.structuredContent as { reason: string }).reason)).toContain(
        'started by this MCP session',
      );
    }

    const declining = await open(RUN_AND_MERGE, 'producer', { approver: 'Ada', elicitation: 'decline' });
    const declined = await declining.client.callTool({
      name: 'snodo_task_approve',
      arguments: { job_id: jobId, reason: 'fine' },
    });
    expect(declined.structuredContent).toMatchObject({ refused: true });
    expect((await callOk(declining.client, 'snodo_job_status', { job_id: jobId })).status).toBe('halted');

    const accepting = await open(RUN_AND_MERGE, 'producer', { approver: 'Ada', elicitation: 'accept' });
    const approved = await callOk(accepting.client, 'snodo_task_approve', { job_id: jobId, reason: 'fine' });
    expect(approved).toMatchObject({ job_id: jobId, decision: 'approved' });
    expect(await waitForJob(accepting.client, jobId)).toMatchObject({ status: 'done', outcome: 'merged' });
    const show = await callOk(accepting.client, 'snodo_task_show', { job_id: jobId });
    expect(JSON.stringify(show.job)).toContain('"by":"Ada"');
  });

  it('rejects, as the approver, a job a human started, when the client cannot ask (no elicitation)', async (context) => {
    const { open, fixture } = mcpHarness(context);
    const { client } = await open(RUN_AND_MERGE, 'producer', { approver: 'Ada' });
    const run = await fixture().snodo(['run', 'Add a doubtful file', '--mock', '-m', 'mock/warn', '--json']);
    expect(run.exitCode, run.all).toBe(1);
    const jobId = String((JSON.parse(run.stdout) as { jobId: string }).jobId);
    const rejected = await callOk(client, 'snodo_task_reject', { job_id: jobId, reason: 'not this way' });
    expect(rejected).toMatchObject({ job_id: jobId, decision: 'rejected', status: 'rejected' });
    const show = await callOk(client, 'snodo_task_show', { job_id: jobId });
    expect(JSON.stringify(show.job)).toContain('"reason":"not this way"');
    const transcript = await client.readResource({ uri: `snodo://jobs/${jobId}/transcript` });
    expect(transcript.contents[0]).toMatchObject({ mimeType: 'text/plain' });
  });

  it('has no approval tools without --approver: a call to one is refused by the protocol', async (context) => {
    const { open } = mcpHarness(context);
    const { client } = await open(RUN_AND_MERGE, 'producer');
    expect(await toolNames(client)).not.toContain('snodo_task_approve');
    await expect(
      client.callTool({ name: 'snodo_task_approve', arguments: { job_id: 'j_abcdef', reason: 'x' } }),
    ).rejects.toThrow('Tool snodo_task_approve not found');
  });
});
