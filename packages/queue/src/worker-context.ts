import type { CoderCatalog } from '@snodo/core';
import type { Queue } from 'bullmq';
import type { CloneLock } from './clone-git.js';
import type { LandingJobData } from './queue-jobs.js';
import type { WorkerLog } from './worker-log.js';

/** What every job a worker process runs shares: its clone, its identity, its queues. */
export interface WorkerContext {
  /** The worker's own clone of the shared remote (its cwd); runs happen in workspaces made from it. */
  readonly clone: string;
  readonly remote: string;
  readonly workerId: string;
  readonly snodoHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string | undefined;
  readonly coders: CoderCatalog;
  readonly cloneLock: CloneLock;
  readonly log: WorkerLog;
  readonly landings: Queue<LandingJobData>;
  /** The most landings one merge train takes (`queue.landing_batch`). */
  readonly landingBatch: number;
}
