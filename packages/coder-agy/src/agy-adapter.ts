import {
  CoderFailedError,
  type CoderV1Credentials,
  SubprocessCoderAdapter,
  type SubprocessCoderAdapterSettings,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessRun,
  type SupportedVersionRange,
} from '@snodo/coder-sdk';
import { buildAgyArgv } from './agy-argv.js';
import { agyConversationId, agyErrorMessage, agyUsage, parseAgyEnvelope } from './agy-output.js';
import { agyRegistration } from './registration.js';
import { AGY_SUPPORTED_VERSIONS } from './version.js';

/**
 * Settings of `createAgyCoder`: the SDK's subprocess settings (kill grace, transcript cap, idle limit,
 * `finalEventGraceMs` after the envelope).
 */
export type AgyCoderSettings = SubprocessCoderAdapterSettings;

/**
 * Variables that would point agy elsewhere if a user's `coders.agy.env` let them through: another endpoint
 * (`*_BASE_URL`, which agy reportedly honours for its Gemini backend). The SDK removes them.
 */
const droppedVariables = /^.*_BASE_URL$/;

/**
 * Where snodo's instructions go: agy loads the Markdown files in a workspace's `.agents/rules/` as project
 * rules (documentation provenance, not verified live). The text also travels in the prompt.
 */
export const AGY_INSTRUCTIONS_FILE_NAME = '.agents/rules/snodo-instructions.md';

/** The print timeout when `buildArgv` is called outside a run: one hour. */
const defaultPrintTimeoutSeconds = 3600;

/**
 * Google Antigravity CLI (`agy -p`) as an in-place snodo coder, built from the CLI's documentation (it is
 * not on npm, so it is tested against a fake `agy` that behaves as documented): print mode with the JSON
 * envelope, the worktree added with `--add-dir`, permissions skipped, the prompt as the last argument.
 *
 * agy keeps its login in the OS keyring and its settings in `~/.gemini/antigravity-cli/`, so the run uses
 * the user's own home; `GEMINI_API_KEY` is passed when set.
 */
export class AgyCoder extends SubprocessCoderAdapter {
  readonly id = agyRegistration.id;
  readonly displayName = agyRegistration.displayName;
  readonly binary = 'agy';
  readonly modelPrefix = agyRegistration.modelPrefix;
  readonly installHint = agyRegistration.installHint;
  /** agy signs in with Google (OAuth in the OS keyring); an API key is optional. */
  readonly credentials: CoderV1Credentials = {
    envVars: ['GEMINI_API_KEY'],
    configKey: 'google',
    optional: true,
  };
  override readonly supportedVersions: SupportedVersionRange = AGY_SUPPORTED_VERSIONS;
  override readonly supportsUsage = true;
  override readonly droppedVariables = droppedVariables;
  /**
   * NOTE: with --output-format=json agy prints nothing until its envelope, so silence is normal; the
   * wall-clock limit is the only one that applies.
   */
  override readonly quietUntilDone = true;

  declare protected readonly settings: AgyCoderSettings;

  constructor(settings: AgyCoderSettings = {}) {
    super({ instructionsFileName: AGY_INSTRUCTIONS_FILE_NAME, ...settings });
  }

  /** agy's own print timeout is the run's wall-clock limit plus a minute, so snodo's limit fires first. */
  buildArgv(prompt: string, workspace: string, model: string | undefined, run?: SubprocessRun): string[] {
    return buildAgyArgv({
      binary: this.binary,
      prompt,
      workspace,
      model,
      printTimeoutSeconds:
        run === undefined ? defaultPrintTimeoutSeconds : Math.ceil(run.request.timeoutMs / 1000) + 60,
    });
  }

  /**
   * The envelope's last line ends a run: agy lingering after it is stopped after the grace. A top-level
   * `}` alone on a line closes an indented envelope; a one-line envelope is recognised by parsing it.
   */
  override isFinalEvent(line: string): boolean {
    return line === '}' || (line.startsWith('{') && parseAgyEnvelope(line) !== undefined);
  }

  /**
   * Reads the envelope from the end of stdout. After a failed exit, its error becomes the message of
   * `CODER_FAILED`. After a successful one, a missing envelope, or one whose status is not `SUCCESS`, is
   * `CODER_FAILED` too: without it snodo cannot tell what agy did.
   */
  override classifyFailure(output: SubprocessOutput): CoderFailedError | undefined {
    const envelope = parseAgyEnvelope(output.stdout);
    const who = { coderId: this.id, displayName: this.displayName, stderrTail: output.stderr.slice(-4096) };
    if (output.exitCode !== 0) {
      const message = envelope === undefined ? undefined : agyErrorMessage(envelope);
      if (message === undefined || output.exitCode < 0) return undefined;
      return new CoderFailedError({
        ...who,
        exitCode: output.exitCode,
        reason: `exited with code ${output.exitCode}: ${message}`,
      });
    }
    if (envelope === undefined) {
      return new CoderFailedError({
        ...who,
        reason:
          'printed no JSON result (agy before 1.1.8 prints nothing when stdout is not a terminal, and ' +
          'ignores --output-format)',
      });
    }
    if (envelope.status === 'SUCCESS') return undefined;
    return new CoderFailedError({
      ...who,
      reason: `reported status "${envelope.status}": ${agyErrorMessage(envelope) ?? 'no message'}`,
    });
  }

  /** Usage (with the model asked for) and the conversation id, from the `SUCCESS` envelope. */
  override parseOutput(output: SubprocessOutput, run?: SubprocessRun): SubprocessParsedOutput {
    const envelope = parseAgyEnvelope(output.stdout);
    if (envelope === undefined) return {};
    const usage = agyUsage(envelope, run?.model || undefined);
    const sessionId = agyConversationId(envelope);
    return { ...(usage === undefined ? {} : { usage }), ...(sessionId === undefined ? {} : { sessionId }) };
  }
}

/**
 * Creates the Antigravity CLI coder. `settings` are the SDK's subprocess settings: kill grace, transcript
 * cap, idle limit, and `finalEventGraceMs` (how long agy may linger after its envelope).
 */
export function createAgyCoder(settings: AgyCoderSettings = {}): AgyCoder {
  return new AgyCoder(settings);
}
