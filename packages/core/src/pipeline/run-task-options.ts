import type { CoderRegistration } from '../coders/index.js';
import type { LandingStrategy } from '../isolation/index.js';

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

/** What `runTask` is asked to do: the task and every choice a user can make on the command line. */
export interface RunTaskOptions {
  /** The task, as the user wrote it. */
  readonly task: string;
  /** A directory inside the repository (usually `process.cwd()`); the main checkout is found from it. */
  readonly cwd: string;
  /** The coders available to this run. */
  readonly coders: CoderCatalog;
  /** `--coder <id>`. */
  readonly coder?: string | undefined;
  /** `-m/--model`: the judging model, or a coder's model when namespaced (`my-cli/some-model`). */
  readonly model?: string | undefined;
  /** `--mock`: the mock coder and, unless `model` says otherwise, the `mock/pass` judging model. */
  readonly mock?: boolean | undefined;
  /** `--mode <id>`: skips classification. */
  readonly mode?: string | undefined;
  /** `false` for `--no-isolation`: run in the current checkout, which must be clean. Default `true`. */
  readonly isolation?: boolean | undefined;
  /** `--base <branch>`. */
  readonly base?: string | undefined;
  /** `--merge <strategy>`: overrides `execution.merge_strategy`. */
  readonly mergeStrategy?: LandingStrategy | undefined;
  /** `--timeout <seconds>`: the coder's wall-clock limit per attempt. */
  readonly timeoutSeconds?: number | undefined;
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
}
