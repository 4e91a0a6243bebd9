import {
  CoderFailedError,
  type CoderProviderFailedError,
  type CoderV1Credentials,
  type CoderV1Request,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessRun,
  type SubprocessRunPreparation,
  type SupportedVersionRange,
} from '@snodo/coder-sdk';
import { buildCodexArgv } from './codex-argv.js';
import { buildCodexEnvironment, prepareCodexHome } from './codex-home.js';
import { type CodexRunSummary, codexUsage, isCodexFinalLine, summarizeCodexOutput } from './codex-output.js';
import { CODEX_STDERR_NOISE, parseCodexRetry } from './codex-retries.js';
import { type CodexCoderSettings, type CodexRunConfig, codexConfigSchema } from './codex-settings.js';
import { codexRegistration } from './registration.js';
import { CODEX_SUPPORTED_VERSIONS } from './version.js';

/**
 * OpenAI Codex (`codex exec`) as an in-place snodo coder: it edits the task worktree itself, snodo
 * commits. See COMPAT.md for the verified versions and where each flag and variable comes from.
 */
class CodexCoder extends SubprocessCoderAdapter<CodexRunConfig> {
  readonly id = codexRegistration.id;
  readonly displayName = codexRegistration.displayName;
  readonly credentials: CoderV1Credentials = {
    envVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
    configKey: 'openai',
  };
  readonly binary = 'codex';
  readonly modelPrefix = codexRegistration.modelPrefix;
  readonly installHint = codexRegistration.installHint;
  override readonly supportedVersions: SupportedVersionRange = CODEX_SUPPORTED_VERSIONS;
  override readonly supportsUsage = true;
  override readonly configSchema = codexConfigSchema;
  override readonly stderrNoise = CODEX_STDERR_NOISE;

  declare protected readonly settings: CodexCoderSettings;

  constructor(settings: CodexCoderSettings = {}) {
    super(settings);
  }

  buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    return buildCodexArgv(this.binary, prompt, workspace, model);
  }

  /** The private `CODEX_HOME` (its `config.toml` and `AGENTS.md`) and the variables pointing at it. */
  override prepareRun(request: CoderV1Request, config: CodexRunConfig): SubprocessRunPreparation {
    prepareCodexHome(request, config);
    return { env: buildCodexEnvironment(request) };
  }

  /** Each `Reconnecting... 2/5` event on stdout is a retry: progress, and the cause of a run stopped meanwhile. */
  override readonly providerRetries = {
    stream: 'stdout' as const,
    parse: (line: string) => parseCodexRetry(line),
    endpoint: (run: CodexRun) => this.endpoint(run),
  };

  /** `true` for `turn.completed` / `turn.failed`: Codex's work is done even if it does not exit. */
  override isFinalEvent(line: string): boolean {
    return isCodexFinalLine(line);
  }

  /** A finished turn without usage (`turn.failed`), after any exit. NOTE: exit 0 does not make it a success. */
  override classifyFailure(
    output: SubprocessOutput,
    run: CodexRun,
  ): CoderFailedError | CoderProviderFailedError | undefined {
    const summary = summarizeCodexOutput(output.stdout);
    if (!summary.finished || summary.usage !== undefined) return undefined;
    const exhausted = run.retries.toError({
      coderId: this.id,
      displayName: this.displayName,
      endpoint: this.endpoint(run),
      ...(summary.failure === undefined ? {} : { detail: summary.failure }),
      stderrTail: output.stderr,
    });
    return exhausted ?? this.summaryError(summary, { exitCode: output.exitCode, stderrTail: output.stderr });
  }

  /** Where Codex's model calls went, for a provider failure's fix. */
  private endpoint(run: CodexRun): { where: string; setting?: string } {
    return run.config.baseUrl === undefined
      ? { where: "OpenAI's API (https://api.openai.com, status.openai.com)" }
      : { where: run.config.baseUrl, setting: `base_url in coders.${this.id} or the mode's coder_config` };
  }

  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const summary = summarizeCodexOutput(output.stdout);
    return {
      ...(summary.threadId === undefined ? {} : { sessionId: summary.threadId }),
      ...(summary.usage === undefined ? {} : { usage: codexUsage(summary.usage, undefined) }),
    };
  }

  /** `CODER_FAILED` carrying the message of `turn.failed` (or the last `error` event). */
  private summaryError(
    summary: CodexRunSummary,
    ending: {
      exitCode?: number | undefined;
      signal?: string | undefined;
      stderrTail: string;
      cause?: unknown;
    },
  ): CoderFailedError {
    const how =
      ending.exitCode === undefined || ending.exitCode === 0
        ? 'reported a failed turn'
        : `exited with code ${ending.exitCode}`;
    const message = (summary.failure ?? 'no message').trim().split('\n')[0]?.slice(0, 500) ?? '';
    const error = new CoderFailedError({
      coderId: this.id,
      displayName: this.displayName,
      reason: `${how}: ${message}`,
      ...(ending.exitCode === undefined ? {} : { exitCode: ending.exitCode }),
      ...(ending.signal === undefined ? {} : { signal: ending.signal }),
      stderrTail: ending.stderrTail,
      cause: ending.cause,
    });
    return error;
  }
}

/** One attempt of Codex as its hooks see it. */
type CodexRun = SubprocessRun<CodexRunConfig>;

/**
 * Creates the Codex coder: `codex exec` headless in the task worktree, with snodo's instructions as the
 * private `CODEX_HOME`'s `AGENTS.md`, and usage and thread id read from its JSON events. Registered by the
 * snodo CLI as `codex` (model namespace `codex/`).
 */
export function createCodexCoder(settings: CodexCoderSettings = {}): SubprocessCoderAdapter<CodexRunConfig> {
  return new CodexCoder(settings);
}
