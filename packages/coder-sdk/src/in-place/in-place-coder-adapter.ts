import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { credentialFix, evaluateCredentials } from '../credentials/evaluate-credentials.js';
import { GitMetadataTamperedError } from '../errors/git-metadata-tampered-error.js';
import { SnodoMutationError } from '../errors/snodo-mutation-error.js';
import { CoderAbortedError, WorktreeNotCleanError } from '../errors.js';
import { runGit } from '../git/run-git.js';
import type { CoderAdapterV1 } from '../v1/coder-v1.js';
import type { CoderV1Availability, CoderV1AvailabilityOptions } from '../v1/coder-v1-availability.js';
import type { CoderV1Credentials } from '../v1/coder-v1-credentials.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { CoderV1Result } from '../v1/coder-v1-result.js';
import type { CoderV1Usage } from '../v1/coder-v1-usage.js';
import { readBaseCoderConfig } from './coder-settings.js';
import { buildCommitMessage, extractAttribution } from './commit-message.js';
import {
  findGitMetadataChanges,
  type GitMetadataSnapshot,
  restoreGitMetadata,
  takeGitMetadataSnapshot,
} from './git-metadata-snapshot.js';
import {
  DEFAULT_INSTRUCTIONS_FILE_NAME,
  instructionsFileNameProblem,
  placeInstructionsFile,
} from './instructions-file.js';
import { readHeadCommit, resolveRepositoryPaths, splitNul } from './repository-paths.js';
import {
  findSnodoChanges,
  restoreSnodoDirectory,
  type SnodoDirectorySnapshot,
  takeSnodoDirectorySnapshot,
} from './snodo-directory-snapshot.js';

/** The identity of snodo's commits when the repository has none configured. */
const fallbackIdentity = { name: 'snodo', email: 'snodo@localhost' } as const;

/** Settings an adapter's factory passes to the base class. */
export interface InPlaceCoderAdapterSettings {
  /**
   * Keep the attribution lines a CLI put in its own commit messages (`Co-Authored-By: …`, "Generated
   * with …") by appending them to snodo's commit. Off by default. `coder_config.keep_attribution: true`
   * turns it on per run as well.
   */
  readonly keepAttribution?: boolean;
  /**
   * Where the instructions file goes in the worktree, relative to its root. Default
   * `.snodo-instructions.md`. Adapters may also override the `instructionsFileName` member.
   */
  readonly instructionsFileName?: string;
}

/** What `execute` learns from the coder, folded into the result by the base class. */
export interface InPlaceExecution {
  /** Usage the coder reported, or `null`/absent when none. */
  readonly usage?: CoderV1Usage | null;
  /** The CLI's version, used in the `Snodo-Coder` trailer (`unknown` when absent). */
  readonly cliVersion?: string;
  /** The argv that ran, secrets removed. */
  readonly argv?: readonly string[];
  /** The process exit code. */
  readonly exitCode?: number;
  /** The end of the coder's stderr. */
  readonly stderrTail?: string;
  /** The CLI's session id. */
  readonly sessionId?: string;
  /** The transcript written for this attempt. */
  readonly transcriptPath?: string;
}

/** What `execute` gets besides the request. */
export interface InPlaceExecutionContext<Preparation> {
  /** The commit `HEAD` pointed at before the coder ran; the attempt's one commit will sit on it. */
  readonly startCommit: string;
  /** Absolute path of the instructions file placed for this run. */
  readonly instructionsFilePath: string;
  /** What `prepare` returned. */
  readonly preparation: Preparation;
}

/** The state recorded before the coder runs, compared and restored from afterwards. */
interface RunSnapshot {
  readonly startCommit: string;
  readonly snodo: SnodoDirectorySnapshot;
  readonly metadata: GitMetadataSnapshot;
}

/**
 * The base of every coder that edits the worktree itself (a CLI, a server, an agent SDK). It owns the
 * commit: whatever the coder did, the branch gains exactly one commit per attempt, with snodo's message
 * and identity, or none when nothing changed.
 *
 * `doRun` is a template method around the abstract `execute`. Before: records the start commit, writes the
 * instructions file (excluded from git), snapshots `.snodo/` and the git metadata a coder could tamper
 * with. After: restores and refuses tampered git metadata (`GIT_METADATA_TAMPERED`) and any change under
 * `.snodo/` (`SNODO_MUTATION_BLOCKED`), squashes commits the CLI made, commits once with
 * `git commit -F -` and hooks disabled, and checks the worktree is clean.
 *
 * `Preparation` is whatever `prepare` computes before any side effect (the subprocess base finds its
 * binary there) and hands to `execute`.
 */
export abstract class InPlaceCoderAdapter<Preparation = undefined> implements CoderAdapterV1 {
  /** The contract version. */
  readonly specificationVersion = 'coder-v1' as const;
  /** In-place coders edit the worktree; the adapter commits. */
  readonly kind = 'in-place' as const;

  /** See `CoderAdapterV1.id`. */
  abstract readonly id: string;
  /** See `CoderAdapterV1.displayName`. */
  abstract readonly displayName: string;
  /** See `CoderAdapterV1.modelPrefix`. */
  abstract readonly modelPrefix: string | undefined;
  /** See `CoderAdapterV1.installHint`. */
  abstract readonly installHint: string;
  /** See `CoderAdapterV1.credentials`. */
  abstract readonly credentials: CoderV1Credentials;

  /** See `CoderAdapterV1.supportsUsage`. */
  declare readonly supportsUsage?: boolean;
  /** See `CoderAdapterV1.supportsAbort`. */
  declare readonly supportsAbort?: boolean;
  /** See `CoderAdapterV1.supportsResume`. */
  declare readonly supportsResume?: boolean;
  /** See `CoderAdapterV1.supportsStreamingEvents`. */
  declare readonly supportsStreamingEvents?: boolean;
  /** See `CoderAdapterV1.supportsSandbox`. */
  declare readonly supportsSandbox?: boolean;

  /** Where the instructions file goes, relative to the worktree root. Override to match your CLI. */
  readonly instructionsFileName: string;

  /** The settings the factory passed. */
  protected readonly settings: InPlaceCoderAdapterSettings;

  constructor(settings: InPlaceCoderAdapterSettings = {}) {
    this.settings = settings;
    this.instructionsFileName = settings.instructionsFileName ?? DEFAULT_INSTRUCTIONS_FILE_NAME;
  }

  /**
   * Lets the coder change the worktree: run the CLI, drive the server, wait for it to finish. Called once
   * per attempt by `doRun` with the instructions file in place. Throw a typed error on failure; do not
   * commit (a commit the coder makes anyway is squashed).
   */
  protected abstract execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<Preparation>,
  ): Promise<InPlaceExecution>;

  /**
   * Runs before anything is written: find what the coder needs, fail with `CODER_NOT_INSTALLED` or
   * `CODER_CREDENTIALS_MISSING` while the worktree is untouched. The default does nothing.
   */
  protected async prepare(_request: CoderV1Request): Promise<Preparation> {
    return undefined as Preparation;
  }

  /**
   * Ready unless a required key is missing from `options.env`. Coders with something to install override
   * it (`SubprocessCoderAdapter` checks its binary and version).
   */
  async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    const credentials = evaluateCredentials(this.credentials, options.env);
    if (credentials !== 'missing') return { ready: true, installed: true, credentials };
    return {
      ready: false,
      installed: true,
      credentials,
      reason: `${this.displayName} needs ${this.credentials.envVars.join(' or ')} and none is set`,
      fix: credentialFix(this.credentials),
    };
  }

  /** One attempt: prepare, snapshot, `execute`, guard, commit. See the class comment. */
  async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const startedAt = performance.now();
    if (request.abortSignal.aborted) {
      throw new CoderAbortedError({
        coderId: this.id,
        displayName: this.displayName,
        cause: request.abortSignal.reason,
      });
    }
    const problem = instructionsFileNameProblem(this.instructionsFileName);
    if (problem !== undefined) {
      throw new TypeError(
        `${this.displayName}: instructionsFileName "${this.instructionsFileName}" ${problem}.`,
      );
    }
    const baseConfig = readBaseCoderConfig(this.id, request.coderConfig);
    const preparation = await this.prepare(request);

    const paths = await resolveRepositoryPaths(request.workspace);
    const startCommit = await readHeadCommit(request.workspace);
    const metadata = await takeGitMetadataSnapshot(paths);
    const snodo = await takeSnodoDirectorySnapshot(request.workspace, [
      request.transcriptPath,
      request.instructionsPath,
    ]);
    const snapshot: RunSnapshot = { startCommit, snodo, metadata };
    const removeInstructions = await placeInstructionsFile({
      workspace: request.workspace,
      commonDirectory: paths.commonDirectory,
      fileName: this.instructionsFileName,
      text: request.instructions,
    });

    let execution: InPlaceExecution;
    try {
      execution = await this.execute(request, {
        startCommit,
        instructionsFilePath: path.join(request.workspace, ...this.instructionsFileName.split('/')),
        preparation,
      });
    } catch (error) {
      await removeInstructions();
      await this.guard(request, snapshot, error);
      await this.moveBranchBack(request.workspace, startCommit);
      throw error;
    }
    await removeInstructions();
    const headCommit = await this.guard(request, snapshot, undefined);
    const keepAttribution = this.settings.keepAttribution === true || baseConfig.keepAttribution;
    const committed = await this.commitAttempt(
      request,
      { startCommit, headCommit },
      execution,
      keepAttribution,
    );
    return {
      ...committed,
      usage: execution.usage ?? null,
      transcriptPath: execution.transcriptPath,
      cliVersion: execution.cliVersion,
      argv: execution.argv,
      exitCode: execution.exitCode,
      durationMs: Math.round(performance.now() - startedAt),
      stderrTail: execution.stderrTail,
      sessionId: execution.sessionId,
    };
  }

  /**
   * Refuses tampering. Git metadata is checked first and with the filesystem only, and restored before
   * snodo runs another git command: a planted filter driver would otherwise run inside snodo's own
   * `git status`. Any violation moves the branch back to the start commit (keeping the coder's other edits
   * in the worktree for inspection), restores `.snodo/` and throws, with the coder's own error as cause.
   * Returns the commit the worktree's HEAD is at when nothing was violated (read once, for the commit step).
   */
  private async guard(request: CoderV1Request, snapshot: RunSnapshot, cause: unknown): Promise<string> {
    const metadataChanges = await findGitMetadataChanges(snapshot.metadata);
    if (metadataChanges.length > 0) await restoreGitMetadata(snapshot.metadata, metadataChanges);
    const headCommit = await readHeadCommit(request.workspace);
    const snodoPaths = await findSnodoChanges(snapshot.snodo, snapshot.startCommit, headCommit);
    if (metadataChanges.length === 0 && snodoPaths.length === 0) return headCommit;
    await this.moveBranchBack(request.workspace, snapshot.startCommit);
    await restoreSnodoDirectory(snapshot.snodo, snodoPaths);
    const who = { coderId: this.id, displayName: this.displayName, cause };
    if (metadataChanges.length > 0) throw new GitMetadataTamperedError({ ...who, changes: metadataChanges });
    throw new SnodoMutationError({ ...who, paths: snodoPaths });
  }

  /** Moves the branch back to `startCommit`, keeping the worktree's files (a mixed reset), if it moved. */
  private async moveBranchBack(workspace: string, startCommit: string): Promise<void> {
    if ((await readHeadCommit(workspace)) !== startCommit) {
      await runGit(['reset', '--mixed', '-q', startCommit], { cwd: workspace });
    }
  }

  /**
   * Squashes, stages and makes the attempt's one commit; checks the worktree is clean afterwards.
   * `headCommit` is where the coder left HEAD, as the guard read it.
   */
  private async commitAttempt(
    request: CoderV1Request,
    { startCommit, headCommit }: { readonly startCommit: string; readonly headCommit: string },
    execution: InPlaceExecution,
    keepAttribution: boolean,
  ): Promise<Pick<CoderV1Result, 'status' | 'commit' | 'changedFiles'>> {
    const cwd = request.workspace;
    let attribution: string[] = [];
    if (headCommit !== startCommit) {
      if (keepAttribution) {
        const { stdout } = await runGit(['log', '--format=%B', `${startCommit}..HEAD`], { cwd });
        attribution = extractAttribution(stdout);
      }
      await runGit(['reset', '--soft', '-q', startCommit], { cwd });
    }
    await runGit(['add', '-A'], { cwd });
    // NOTE: HEAD is `startCommit` here, so what is staged is the attempt's whole change: its paths are the
    // result's `changedFiles` (`--no-renames`, so a rename lists both its old and its new path).
    const staged = splitNul(
      (await runGit(['diff', '--cached', '--name-only', '--no-renames', '-z'], { cwd })).stdout,
    );
    if (staged.length === 0) {
      await this.assertClean(cwd);
      return { status: 'no-changes', changedFiles: [] };
    }
    const identity = await readIdentity(cwd);
    const message = buildCommitMessage({
      jobId: request.jobId,
      task: request.task,
      coderId: this.id,
      cliVersion: execution.cliVersion,
      attribution: keepAttribution ? attribution : [],
    });
    await runGit(['commit', '--no-verify', '--cleanup=verbatim', '--quiet', '-F', '-'], {
      cwd,
      input: message,
      env: {
        GIT_AUTHOR_NAME: identity.name,
        GIT_AUTHOR_EMAIL: identity.email,
        GIT_COMMITTER_NAME: identity.name,
        GIT_COMMITTER_EMAIL: identity.email,
      },
    });
    const commit = await readHeadCommit(cwd);
    await this.assertClean(cwd);
    return { status: 'changed', commit, changedFiles: [...staged].sort() };
  }

  private async assertClean(workspace: string): Promise<void> {
    // NOTE: `--ignore-submodules=dirty`: looking inside a submodule for local edits runs git there with the
    // submodule's own config, where a coder may have planted a filter that would run outside the sandbox.
    const { stdout } = await runGit(
      ['status', '--porcelain', '--untracked-files=all', '--ignore-submodules=dirty'],
      {
        cwd: workspace,
      },
    );
    const statusLines = stdout.split('\n').filter((line) => line !== '');
    if (statusLines.length > 0) throw new WorktreeNotCleanError({ workspace, statusLines });
  }
}

/**
 * The repository's configured identity when both name and email are set, else snodo's own: both keys in one
 * `config` call (`-z`: a key, a newline, its value, NUL), the last value of each winning as `--get` would.
 */
async function readIdentity(cwd: string): Promise<{ name: string; email: string }> {
  const { stdout } = await runGit(['config', '-z', '--get-regexp', '^user\\.(name|email)$'], {
    cwd,
    allowedExitCodes: [1],
  });
  const values = new Map<string, string>();
  for (const entry of splitNul(stdout)) {
    const newline = entry.indexOf('\n');
    if (newline > 0) values.set(entry.slice(0, newline), entry.slice(newline + 1).trim());
  }
  const name = values.get('user.name') ?? '';
  const email = values.get('user.email') ?? '';
  return name !== '' && email !== '' ? { name, email } : fallbackIdentity;
}
