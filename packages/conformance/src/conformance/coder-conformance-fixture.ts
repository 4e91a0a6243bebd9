import type { CoderAdapterV1, CoderV1Kind } from '@snodo/coder-sdk';
import type { ObligationName } from './obligation-catalog.js';

/**
 * What the suite asks of the adapter's factory. Pass these through to your adapter's settings when it
 * accepts them (the SDK's `SubprocessCoderAdapterSettings` does), so the hang test takes a second, not
 * the production grace. If your factory cannot take them, declare the values it really uses in
 * `fixture.timeouts.killGraceMs` and `fixture.output.transcriptCapBytes`.
 */
export interface ConformanceAdapterOptions {
  /** The time between SIGTERM and SIGKILL the suite expects (`SubprocessCoderAdapterSettings.killGraceMs`). */
  readonly killGraceMs: number;
  /** The transcript cap the suite checks `output-capped` against (`transcriptCapBytes`). */
  readonly transcriptCapBytes: number;
}

/**
 * Makes a fresh adapter. Called once when the tests are registered (to read `kind`, `credentials` and
 * `modelPrefix`) and once per run, so it must be cheap and free of side effects.
 */
export type CoderAdapterFactory = (options: ConformanceAdapterOptions) => CoderAdapterV1;

/** How the fake CLI stands in for the real one. */
export interface ConformanceFakeCliFixture {
  /** What the real CLI prints for its version probe (`2.1.3 (Claude Code)`); must parse and be supported. */
  readonly versionOutput: string;
  /**
   * What the real CLI prints on stdout at the end of a run: its final JSON with usage
   * (`{"type":"result","usage":{…}}`). Printed at the end of every run that ends normally, so
   * `parseOutput` sees realistic output; `usage-shape-valid` checks what the adapter makes of it.
   */
  readonly usageOutput?: string;
  /** The version probe's arguments. Default: the adapter's `versionArgs`, else `['--version']`. */
  readonly versionArgs?: readonly string[];
  /** The fake executable's file name. Default: the adapter's `binary`, else its `id`. */
  readonly name?: string;
}

/** Limits the suite runs with; the defaults keep one adapter's suite to seconds. */
export interface ConformanceTimeouts {
  /** `request.timeoutMs` for the hang test. Default 1000. */
  readonly hangTimeoutMs?: number;
  /** The SIGTERM→SIGKILL grace passed to the factory and expected of the adapter. Default 500. */
  readonly killGraceMs?: number;
  /** Slack allowed on top of every limit before the suite calls a run late. Default 2000. */
  readonly marginMs?: number;
  /** `request.timeoutMs` for the stdin test (a blocked read shows up as a timeout). Default 3000. */
  readonly stdinTimeoutMs?: number;
  /** `request.timeoutMs` for ordinary runs. Default 30000. */
  readonly runTimeoutMs?: number;
}

/** The output-capping scenario. */
export interface ConformanceOutputFixture {
  /** Megabytes the fake CLI prints. Default 50. */
  readonly megabytes?: number;
  /** The cap to expect, when the factory ignores `options.transcriptCapBytes`. Default 1 MiB (the option). */
  readonly transcriptCapBytes?: number;
  /**
   * Growth of the test process's live memory (heap and Buffers, measured after a full collection) during
   * that run that counts as buffering the output. Default: half the printed output (25 MiB).
   */
  readonly memoryGrowthLimitBytes?: number;
}

/**
 * Everything the suite needs to know about an adapter that it cannot read from the adapter itself. Every
 * field is optional: `{}` proves an SDK-based adapter whose CLI prints a plain version.
 */
export interface CoderConformanceFixture {
  /** The kind the adapter must declare. Default: whatever it declares. */
  readonly kind?: CoderV1Kind;
  /** Shown in the `describe` title. Default: the adapter's `displayName`. */
  readonly label?: string;
  /** The fake CLI (in-place coders). */
  readonly fakeCli?: ConformanceFakeCliFixture;
  /** The model name used by the model obligations. Default `conformance-model`. */
  readonly model?: string;
  /**
   * The credentials core would inject (`{ ANTHROPIC_API_KEY: 'test-key' }`). Default: a generated value
   * for the adapter's first `credentials.envVars` entry.
   */
  readonly credentials?: { readonly env: Readonly<Record<string, string>> };
  /** Turns the fake CLI's path into `coderConfig`. Default `(path) => ({ binary: path })`. */
  readonly configureBinary?: (binaryPath: string) => Record<string, unknown>;
  /** More `coderConfig` for every run (a fake LLM's base URL for an engine-managed coder). */
  readonly coderConfig?: Readonly<Record<string, unknown>>;
  /**
   * Attribution lines the real CLI writes into its own commits. Default: Claude Code's
   * `Co-Authored-By: Claude <noreply@anthropic.com>` and `🤖 Generated with [Claude Code](…)`.
   */
  readonly attributionSamples?: readonly string[];
  /** Limits; see `ConformanceTimeouts`. */
  readonly timeouts?: ConformanceTimeouts;
  /** The output-capping scenario; see `ConformanceOutputFixture`. */
  readonly output?: ConformanceOutputFixture;
  /**
   * Obligations this adapter does not meet on purpose, each with the written reason shown in the skipped
   * test's title (`{ 'stdin-never-blocks': 'the CLI reads the prompt from stdin; we close it' }`). An
   * opt-out without a reason, or naming no obligation, is a failing test.
   */
  readonly optOut?: Readonly<Partial<Record<ObligationName, string>>>;
}
