import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildCoderEnvironment,
  type CoderV1AvailabilityOptions,
  type CoderV1Event,
  type CoderV1Request,
  type CoderV1Usage,
} from '@snodo/coder-sdk';
import { createFakeCli, type FakeCli } from '../fake-cli/create-fake-cli.js';
import type { FakeCliScenario } from '../fake-cli/fake-cli-scenario.js';
import { CONFORMANCE_PROMPT } from './conformance-prompt.js';
import { git } from './git-in-sandbox.js';
import { killProcesses } from './process-liveness.js';
import { repositoryTemplate, useRepositoryTemplate } from './repository-template.js';
import type { ResolvedFixture } from './resolved-fixture.js';
import { settle } from './settle.js';

/** How long cleaning up waits for a `doRun` still working after its processes were killed. */
const disposeWaitMs = 10_000;

/** How to set up one run. */
export interface ConformanceRunOptions {
  /** The fixture with its defaults. */
  readonly resolved: ResolvedFixture;
  /** The obligation, used in the task text. */
  readonly obligation: string;
  /** The fake CLI's scenario; without one no fake CLI is written (a missing binary, an engine-managed coder). */
  readonly scenario?: FakeCliScenario;
  /** Whether `coderConfig` names the binary (in-place coders). Default `true`. */
  readonly configureBinary?: boolean;
  /** The environment core filters. Default `process.env` with the fake CLI's directory first on PATH. */
  readonly parentEnv?: Readonly<Record<string, string | undefined>>;
  /** The credentials core injects. Default the fixture's. */
  readonly credentials?: Readonly<Record<string, string>>;
}

function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}

/**
 * One run's world, laid out the way core lays out a job: a real repository with one commit (tracked
 * `.snodo/protocol.yml`, job directories excluded), a linked worktree on branch `snodo/<job>`, the job
 * directory in the main checkout holding the instructions and the transcript, a private HOME, a directory
 * for the fake CLI, and the request core would send.
 */
export class ConformanceRun {
  readonly root: string;
  readonly main: string;
  readonly workspace: string;
  readonly home: string;
  readonly binDirectory: string;
  readonly jobId: string;
  readonly branch: string;
  readonly startCommit: string;
  readonly jobDirectory: string;
  readonly transcriptPath: string;
  /** The job's coder state directory (`.snodo/jobs/<id>/coder`), `request.stateDirectory`; not created. */
  readonly stateDirectory: string;
  readonly instructionsPath: string;
  /** A text only the instructions contain, so the fake CLI can say where it saw them. */
  readonly instructionsMarker: string;
  readonly instructions: string;
  /** The fake CLI, when the run has a scenario. */
  readonly fakeCli: FakeCli | undefined;
  /** The fake CLI's path, or where it would be (absent) when there is none. */
  readonly binaryPath: string;
  /** The environment core built: allow-listed variables, private HOME, this coder's credentials. */
  readonly env: Record<string, string>;
  /** Aborted by `dispose`, so a coder still running when an obligation ends is stopped. */
  readonly abortController = new AbortController();
  /** `usage` events the coder emitted. */
  readonly usageEvents: CoderV1Usage[] = [];
  /** How many other events it emitted (output chunks are counted, not kept). */
  otherEventCount = 0;

  private readonly options: ConformanceRunOptions;
  private readonly releaseTemplate: () => void;
  private readonly pending: Promise<unknown>[] = [];

  constructor(options: ConformanceRunOptions) {
    this.options = options;
    const { resolved } = options;
    this.releaseTemplate = useRepositoryTemplate();
    const template = repositoryTemplate();
    this.root = mkdtempSync(path.join(os.tmpdir(), 'snodo-conformance-'));
    this.main = path.join(this.root, 'main');
    this.workspace = path.join(this.root, 'worktree');
    this.home = path.join(this.root, 'home');
    this.binDirectory = path.join(this.root, 'bin');
    this.jobId = `j_conf${randomSuffix()}`;
    this.branch = `snodo/${this.jobId}`;
    this.startCommit = template.startCommit;
    try {
      cpSync(template.directory, this.main, { recursive: true });
      git(['worktree', 'add', '-q', '-b', this.branch, this.workspace], this.main);
    } catch (error) {
      rmSync(this.root, { recursive: true, force: true });
      this.releaseTemplate();
      throw error;
    }
    mkdirSync(this.home);
    mkdirSync(this.binDirectory);

    this.jobDirectory = path.join(this.main, '.snodo', 'jobs', this.jobId);
    mkdirSync(this.jobDirectory, { recursive: true });
    this.transcriptPath = path.join(this.jobDirectory, 'transcript.log');
    this.stateDirectory = path.join(this.jobDirectory, 'coder');
    this.instructionsPath = path.join(this.jobDirectory, 'instructions.md');
    this.instructionsMarker = `snodo-conformance-instructions-${randomSuffix()}`;
    this.instructions =
      '# snodo instructions (conformance check)\n\n' +
      `Marker: ${this.instructionsMarker}\n\nWork only inside this worktree. Never change .snodo/.\n`;
    writeFileSync(this.instructionsPath, this.instructions);

    this.fakeCli =
      options.scenario === undefined
        ? undefined
        : createFakeCli({
            directory: this.binDirectory,
            name: resolved.fakeCliName,
            version: resolved.versionOutput,
            versionArgs: resolved.versionArgs,
            scenario: options.scenario,
          });
    this.binaryPath = this.fakeCli?.path ?? path.join(this.binDirectory, resolved.fakeCliName);
    const parentEnv = options.parentEnv ?? process.env;
    this.env = buildCoderEnvironment({
      parentEnv: {
        ...parentEnv,
        PATH: [this.binDirectory, parentEnv.PATH ?? ''].filter((entry) => entry !== '').join(path.delimiter),
      },
      credentials: options.credentials ?? resolved.credentials,
      homeDirectory: this.home,
    });
  }

  /** The request core would send for this run. */
  request(overrides: Partial<CoderV1Request> = {}): CoderV1Request {
    const { resolved } = this.options;
    const binaryConfig =
      this.options.configureBinary === false ? {} : resolved.configureBinary(this.binaryPath);
    return {
      jobId: this.jobId,
      attempt: 1,
      task: `Conformance check ${this.options.obligation}\n\nThe task's second line stays out of the subject.`,
      prompt: CONFORMANCE_PROMPT,
      workspace: this.workspace,
      model: undefined,
      env: this.env,
      timeoutMs: resolved.runTimeoutMs,
      abortSignal: this.abortController.signal,
      instructions: this.instructions,
      instructionsPath: this.instructionsPath,
      transcriptPath: this.transcriptPath,
      stateDirectory: this.stateDirectory,
      homeDirectory: this.home,
      coderConfig: { ...resolved.coderConfig, ...binaryConfig },
      emit: (event: CoderV1Event) => {
        if (event.type === 'usage') this.usageEvents.push(event.usage);
        else this.otherEventCount += 1;
      },
      ...overrides,
    };
  }

  /** What core would pass to `checkAvailability` for this run. */
  availabilityOptions(): CoderV1AvailabilityOptions {
    return this.options.configureBinary === false
      ? { env: this.env }
      : { env: this.env, binaryPath: this.binaryPath };
  }

  /** Runs git in the worktree (or `cwd`) and returns stdout. */
  git(args: readonly string[], cwd: string = this.workspace): string {
    return git(args, cwd);
  }

  /** The commit the task branch points at now. */
  head(): string {
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  /** The pids the fake CLI recorded: its own and its grandchildren's. */
  processIds(): number[] {
    const ids = this.fakeCli?.readProcessIds();
    return ids === undefined ? [] : [...ids.cli, ...ids.grandchildren];
  }

  /** Keeps `promise` (a `doRun`) so `dispose` can wait for it; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.push(promise);
    return promise;
  }

  /**
   * Stops the coder (abort, then SIGKILL to every process the fake CLI recorded), waits a while for any
   * `doRun` still working, then removes everything. NOTE: removing the directories under a coder that is
   * still cleaning up lets its restore step recreate them, so the wait comes first.
   */
  async dispose(): Promise<void> {
    this.abortController.abort(new Error('the conformance obligation ended'));
    killProcesses(this.processIds());
    await settle(Promise.allSettled(this.pending), disposeWaitMs);
    rmSync(this.root, { recursive: true, force: true });
    this.releaseTemplate();
  }
}
