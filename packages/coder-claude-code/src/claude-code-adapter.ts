import { mkdirSync } from 'node:fs';
import {
  CoderFailedError,
  type CoderProviderFailedError,
  type CoderV1Credentials,
  type CoderV1Request,
  type ProviderEndpoint,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessRun,
  type SubprocessRunPreparation,
  type SupportedVersionRange,
} from '@snodo/coder-sdk';
import { buildClaudeCodeArgv } from './claude-code-argv.js';
import { buildClaudeCodeEnvironment, claudeCodeConfigDirectory } from './claude-code-environment.js';
import { ClaudeCodeLiveUsage } from './claude-code-live-usage.js';
import {
  type ClaudeCodeResultEvent,
  claudeCodeUsage,
  describeClaudeCodeError,
  findClaudeCodeResult,
  isClaudeCodeResultLine,
} from './claude-code-output.js';
import { parseClaudeCodeRetry } from './claude-code-retries.js';
import {
  type ClaudeCodeCoderSettings,
  type ClaudeCodeRunConfig,
  claudeCodeConfigSchema,
} from './claude-code-settings.js';
import { claudeCodeRegistration } from './registration.js';
import { CLAUDE_CODE_SUPPORTED_VERSIONS } from './version.js';

/**
 * Claude Code (`claude -p`) as an in-place snodo coder: it edits the task worktree itself, snodo commits.
 * See COMPAT.md for the verified versions and where each flag and variable comes from.
 */
class ClaudeCodeCoder extends SubprocessCoderAdapter<ClaudeCodeRunConfig, ClaudeCodeLiveUsage> {
  readonly id = claudeCodeRegistration.id;
  readonly displayName = claudeCodeRegistration.displayName;
  readonly credentials: CoderV1Credentials = {
    envVars: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    configKey: 'anthropic',
  };
  readonly binary = 'claude';
  readonly modelPrefix = claudeCodeRegistration.modelPrefix;
  readonly installHint = claudeCodeRegistration.installHint;
  override readonly supportedVersions: SupportedVersionRange = CLAUDE_CODE_SUPPORTED_VERSIONS;
  /** Claude Code reads `CLAUDE.local.md` next to `CLAUDE.md`; the SDK base excludes it from git. */
  override readonly instructionsFileName = 'CLAUDE.local.md';
  override readonly supportsUsage = true;
  override readonly configSchema = claudeCodeConfigSchema;

  declare protected readonly settings: ClaudeCodeCoderSettings;

  constructor(settings: ClaudeCodeCoderSettings = {}) {
    super(settings);
  }

  buildArgv(prompt: string, _workspace: string, model: string | undefined): string[] {
    // The worktree is the process's working directory; Claude Code takes no directory flag for it.
    return buildClaudeCodeArgv(this.binary, prompt, model);
  }

  /**
   * The private config directory (Claude Code refuses none) and the variables pointing at it, with the
   * configured endpoint.
   */
  override prepareRun(
    request: CoderV1Request,
    config: ClaudeCodeRunConfig,
  ): SubprocessRunPreparation<ClaudeCodeLiveUsage> {
    mkdirSync(claudeCodeConfigDirectory(request), { recursive: true, mode: 0o700 });
    return { env: buildClaudeCodeEnvironment(request, config), state: new ClaudeCodeLiveUsage() };
  }

  /** Reports usage after every model response, so snodo can stop the run at the job's budget. */
  override onOutput(stream: 'stdout' | 'stderr', text: string, run: ClaudeCodeRun): void {
    if (stream !== 'stdout') return;
    const usage = run.state.push(text);
    if (usage !== undefined) run.request.emit({ type: 'usage', usage });
  }

  /** Each `api_retry` event on stdout is a retry: progress, and the cause of a run stopped meanwhile. */
  override readonly providerRetries = {
    stream: 'stdout' as const,
    parse: (line: string) => parseClaudeCodeRetry(line),
    endpoint: (run: ClaudeCodeRun) => this.endpoint(run),
  };

  /** `true` for the `result` event: Claude Code's work is done even if it does not exit (see the SDK). */
  override isFinalEvent(line: string): boolean {
    return isClaudeCodeResultLine(line);
  }

  /** An `is_error` result, after any exit. NOTE: Claude Code may exit 0 after an error it reported. */
  override classifyFailure(
    output: SubprocessOutput,
    run: ClaudeCodeRun,
  ): CoderFailedError | CoderProviderFailedError | undefined {
    const result = findClaudeCodeResult(output.stdout);
    if (result?.is_error !== true) return undefined;
    const exhausted = run.retries.toError({
      coderId: this.id,
      displayName: this.displayName,
      endpoint: this.endpoint(run),
      detail: describeClaudeCodeError(result),
      ...(result.api_error_status == null ? {} : { status: result.api_error_status }),
      stderrTail: output.stderr,
    });
    return exhausted ?? this.resultError(result, { exitCode: output.exitCode, stderrTail: output.stderr });
  }

  /** Where Claude Code's model calls went, for a provider failure's fix. */
  private endpoint(run: ClaudeCodeRun): ProviderEndpoint {
    if (run.config.baseUrl !== undefined) {
      return {
        where: run.config.baseUrl,
        setting: `base_url in coders.${this.id} or the mode's coder_config`,
      };
    }
    const inherited = run.request.env.ANTHROPIC_BASE_URL;
    if (inherited !== undefined && inherited !== '') {
      return { where: inherited, setting: `ANTHROPIC_BASE_URL (coders.${this.id}.env)` };
    }
    return { where: "Anthropic's API (https://api.anthropic.com, status.anthropic.com)" };
  }

  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const result = findClaudeCodeResult(output.stdout);
    if (result === undefined) return {};
    const usage = claudeCodeUsage(result);
    return { sessionId: result.session_id, ...(usage === undefined ? {} : { usage }) };
  }

  /** `CODER_FAILED` carrying the message of an `is_error` result event. */
  private resultError(
    result: ClaudeCodeResultEvent,
    ending: {
      exitCode?: number | undefined;
      signal?: string | undefined;
      stderrTail: string;
      cause?: unknown;
    },
  ): CoderFailedError {
    const how =
      ending.exitCode === undefined || ending.exitCode === 0
        ? 'reported an error'
        : `exited with code ${ending.exitCode}`;
    const error = new CoderFailedError({
      coderId: this.id,
      displayName: this.displayName,
      reason: `${how}: ${describeClaudeCodeError(result)}`,
      ...(ending.exitCode === undefined ? {} : { exitCode: ending.exitCode }),
      ...(ending.signal === undefined ? {} : { signal: ending.signal }),
      stderrTail: ending.stderrTail,
      cause: ending.cause,
    });
    return error;
  }
}

/** One attempt of Claude Code as its hooks see it. */
type ClaudeCodeRun = SubprocessRun<ClaudeCodeRunConfig, ClaudeCodeLiveUsage>;

/**
 * Creates the Claude Code coder: `claude -p` headless in the task worktree, with snodo's instructions in
 * `CLAUDE.local.md`, a private config directory per job, and usage, cost and session id read from the
 * `result` event. Registered by the snodo CLI as `claude-code` (model namespace `claude-code/`).
 */
export function createClaudeCodeCoder(
  settings: ClaudeCodeCoderSettings = {},
): SubprocessCoderAdapter<ClaudeCodeRunConfig, ClaudeCodeLiveUsage> {
  return new ClaudeCodeCoder(settings);
}
