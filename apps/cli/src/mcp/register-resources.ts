import { existsSync, readFileSync } from 'node:fs';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import {
  findMainCheckout,
  jobPaths,
  listJobs,
  readJobState,
  readRepositoryAudit,
  verifyRepositoryAudit,
} from '@snodo/core';
import { isJobId } from '@snodo/core/jobs';
import type { CliContext } from '../cli-context.js';
import { taskOptions } from '../commands/task/task-options.js';

const JSON_TYPE = 'application/json';

function json(uri: URL, value: unknown) {
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] };
}

function variable(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

// A resource URI names a job only in the shape job ids have, so no URI can become a path outside .snodo/jobs.
function checkedJobId(value: string | string[] | undefined): string {
  const jobId = variable(value);
  if (!isJobId(jobId)) throw new Error(`"${jobId}" is not a job id (they look like j_k3x9q2m8a1)`);
  return jobId;
}

/**
 * The resources of `snodo serve`: a job's state, transcript and audit events, the audit log's head and the
 * protocol. All read-only; a client lists jobs through `snodo://jobs/{id}`'s list.
 */
export function registerResources(server: McpServer, context: CliContext): void {
  const root = async () => (await findMainCheckout(context.cwd)).root;
  const listJobResources = (suffix: string, what: string) => async () => ({
    resources: listJobs(await root()).map((state) => ({
      uri: `snodo://jobs/${state.jobId}${suffix}`,
      name: `${state.jobId}${suffix}`,
      description: `${what} of job ${state.jobId} (${state.status}): ${state.task.split('\n')[0] ?? ''}`,
    })),
  });
  server.registerResource(
    'job-state',
    new ResourceTemplate('snodo://jobs/{id}', { list: listJobResources('', 'The state') }),
    {
      title: 'Job state',
      description:
        "A job's state.json: status, outcome, stages, verdicts, attempts, usage. {id}: a job id (j_…).",
      mimeType: JSON_TYPE,
    },
    async (uri, variables) => json(uri, readJobState(await root(), checkedJobId(variables.id))),
  );
  server.registerResource(
    'job-transcript',
    new ResourceTemplate('snodo://jobs/{id}/transcript', { list: undefined }),
    {
      title: 'Job transcript',
      description: "The coder's output for a job (transcript.log, capped). {id}: a job id (j_…).",
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const repositoryRoot = await root();
      const jobId = checkedJobId(variables.id);
      readJobState(repositoryRoot, jobId);
      const path = jobPaths(repositoryRoot, jobId).transcript;
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    },
  );
  server.registerResource(
    'job-events',
    new ResourceTemplate('snodo://jobs/{id}/events', { list: undefined }),
    {
      title: 'Job audit events',
      description:
        'Every audit-log event of a job, in order (type, seq, time, actor, data). {id}: a job id (j_…).',
      mimeType: JSON_TYPE,
    },
    async (uri, variables) =>
      json(uri, await readRepositoryAudit({ ...taskOptions(context), jobId: checkedJobId(variables.id) })),
  );
  server.registerResource(
    'audit-head',
    'snodo://audit/head',
    {
      title: 'Audit log head',
      description: "The audit log's id, last sequence number and head hash, after verifying the chain.",
      mimeType: JSON_TYPE,
    },
    async (uri) => {
      const { result } = await verifyRepositoryAudit(taskOptions(context));
      return json(uri, {
        log_id: result.logId ?? null,
        head_seq: result.headSeq ?? null,
        head_hash: result.headHash ?? null,
        verified: result.ok,
      });
    },
  );
  server.registerResource(
    'protocol',
    'snodo://protocol',
    {
      title: 'Protocol',
      description: "This repository's .snodo/protocol.yml, as written.",
      mimeType: 'text/yaml',
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/yaml',
          text: readFileSync(`${await root()}/.snodo/protocol.yml`, 'utf8'),
        },
      ],
    }),
  );
}
