import type { CoderRegistration } from '../coders/index.js';
import type { TaskRequest } from '../project/task-plan.js';

/**
 * The coders an application makes available. Core names none itself: the CLI (or an embedder) passes the
 * built-in registrations, and core adds the ones declared in the user's config (`coders.<id>.package` or
 * `coders.<id>.command`).
 */
export interface CoderCatalog {
  readonly registrations: readonly CoderRegistration[];
  /** The coder used when nothing else chooses one (SPEC §4.3 step 5). */
  readonly defaultCoderId: string;
  /** The coder `--mock` selects. */
  readonly mockCoderId: string;
  /** Directories searched for third-party coder packages after the repository (e.g. the CLI's own). */
  readonly packageSearchDirectories?: readonly string[];
}

/** What `runTask` takes: the task request (every choice a user can make) and where and how to run it. */
export interface RunTaskOptions extends TaskRequest {
  /** A directory inside the repository (usually `process.cwd()`); the main checkout is found from it. */
  readonly cwd: string;
  /** The coders available to this run. */
  readonly coders: CoderCatalog;
  /** Cancels the run (Ctrl-C in the CLI): the coder is stopped, the job kept as `cancelled`. */
  readonly signal?: AbortSignal | undefined;
  /** The environment to read keys, `SNODO_HOME` and `PATH` from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The user's home directory. Default `os.homedir()`. */
  readonly homeDirectory?: string | undefined;
  /** Treat unknown protocol keys as errors. */
  readonly strict?: boolean | undefined;
  /** Who started the run, for the audit log. Default: the OS user name. */
  readonly actor?: string | undefined;
  /**
   * The job's id, allocated beforehand with `createJobId` (`snodo run --background` prints it before the
   * detached process starts). Refused (`JOB_ID_UNUSABLE`) when it is not a job id or a job already has it.
   * Default: a new id.
   */
  readonly jobId?: string | undefined;
}
