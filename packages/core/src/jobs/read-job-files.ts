import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { JobNotFoundError } from '../errors.js';
import { isJobId } from './job-id.js';
import { jobPaths, jobsDirectory } from './job-paths.js';
import type { JobState, JobTask } from './job-state.js';
import jobStateJsonSchema from './job-state.schema.gen.json';
import jobTaskJsonSchema from './job-task.schema.gen.json';
import { type JsonSchema, JsonSchemaMismatch, parseWithJsonSchema } from './parse-with-json-schema.js';

// Reading jobs is what `snodo task list`, `task show`, `logs` and `meta` do, and they must start fast: the
// files are checked against the JSON Schemas generated from their zod schemas (a test keeps them equal), so
// reading loads neither zod nor the pipeline. Writers still validate with zod (`job-store.ts`).

function parseJobFile<T>(path: string, text: string, schema: JsonSchema, what: string): T {
  try {
    return parseWithJsonSchema(schema, JSON.parse(text)) as T;
  } catch (error) {
    if (!(error instanceof JsonSchemaMismatch)) throw error;
    throw new Error(`${path} is not a valid ${what}: ${error.message}`, { cause: error });
  }
}

/** Reads and validates a job's `state.json`; a missing job, or an id that is not one, is `JOB_NOT_FOUND`. */
export function readJobState(repositoryRoot: string, jobId: string): JobState {
  if (!isJobId(jobId)) throw new JobNotFoundError({ jobId, repositoryRoot });
  const path = jobPaths(repositoryRoot, jobId).state;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new JobNotFoundError({ jobId, repositoryRoot, cause });
  }
  return parseJobFile<JobState>(path, text, jobStateJsonSchema as JsonSchema, "job's state.json");
}

/** Reads a job's `task.json`; one that is missing or malformed is `JOB_NOT_FOUND`. */
export function readJobTask(repositoryRoot: string, jobId: string): JobTask {
  if (!isJobId(jobId)) throw new JobNotFoundError({ jobId, repositoryRoot });
  const path = jobPaths(repositoryRoot, jobId).task;
  try {
    return parseJobFile<JobTask>(
      path,
      readFileSync(path, 'utf8'),
      jobTaskJsonSchema as JsonSchema,
      'task.json',
    );
  } catch (cause) {
    throw new JobNotFoundError({ jobId, repositoryRoot, cause });
  }
}

/** Every job of the repository whose state could be read, newest first. Unreadable ones are skipped. */
export function listJobs(repositoryRoot: string): JobState[] {
  const directory = jobsDirectory(repositoryRoot);
  if (!existsSync(directory)) return [];
  const states: JobState[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (!entry.isDirectory() || !isJobId(entry.name)) continue;
    try {
      states.push(readJobState(repositoryRoot, entry.name));
    } catch {
      // A job directory without a readable state (being created right now, or damaged) is not listed.
    }
  }
  // ISO timestamps sort by code point; `localeCompare` would start ICU's collator (~15 ms) for the same order.
  return states.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
