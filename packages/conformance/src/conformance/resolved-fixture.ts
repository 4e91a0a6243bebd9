import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import type {
  CoderAdapterFactory,
  CoderConformanceFixture,
  ConformanceAdapterOptions,
} from './coder-conformance-fixture.js';

const mebibyte = 1024 * 1024;

/** The default attribution samples: what Claude Code writes into its commits. */
export const DEFAULT_ATTRIBUTION_SAMPLES: readonly string[] = [
  'Co-Authored-By: Claude <noreply@anthropic.com>',
  '🤖 Generated with [Claude Code](https://claude.com/claude-code)',
];

/** A fixture with every default filled in for one adapter. */
export interface ResolvedFixture {
  readonly fixture: CoderConformanceFixture;
  readonly adapterOptions: ConformanceAdapterOptions;
  readonly fakeCliName: string;
  readonly versionOutput: string;
  readonly versionArgs: readonly string[];
  readonly usageOutput: string | undefined;
  readonly model: string;
  readonly credentials: Readonly<Record<string, string>>;
  readonly configureBinary: (binaryPath: string) => Record<string, unknown>;
  readonly coderConfig: Readonly<Record<string, unknown>>;
  readonly attributionSamples: readonly string[];
  readonly hangTimeoutMs: number;
  readonly killGraceMs: number;
  readonly marginMs: number;
  readonly stdinTimeoutMs: number;
  readonly runTimeoutMs: number;
  readonly outputMegabytes: number;
  readonly transcriptCapBytes: number;
  readonly memoryGrowthLimitBytes: number;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined;
}

/** The options the suite passes to the factory. */
export function adapterOptionsFor(fixture: CoderConformanceFixture): ConformanceAdapterOptions {
  return {
    killGraceMs: fixture.timeouts?.killGraceMs ?? 500,
    transcriptCapBytes: fixture.output?.transcriptCapBytes ?? mebibyte,
  };
}

/** Creates an adapter with the suite's options. */
export function createAdapterFor(
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture,
): CoderAdapterV1 {
  return createAdapter(adapterOptionsFor(fixture));
}

/** Fills in the fixture's defaults, reading what it can from the adapter (`binary`, `versionArgs`). */
export function resolveFixture(fixture: CoderConformanceFixture, adapter: CoderAdapterV1): ResolvedFixture {
  const loose = adapter as unknown as Record<string, unknown>;
  const firstKey = adapter.credentials?.envVars?.[0];
  const adapterOptions = adapterOptionsFor(fixture);
  return {
    fixture,
    adapterOptions,
    fakeCliName:
      fixture.fakeCli?.name ??
      (typeof loose.binary === 'string' && /^[\w.-]+$/.test(loose.binary) ? loose.binary : adapter.id),
    versionOutput: fixture.fakeCli?.versionOutput ?? '1.0.0',
    versionArgs: fixture.fakeCli?.versionArgs ?? stringArray(loose.versionArgs) ?? ['--version'],
    usageOutput: fixture.fakeCli?.usageOutput,
    model: fixture.model ?? 'conformance-model',
    credentials:
      fixture.credentials?.env ??
      (firstKey === undefined ? {} : { [firstKey]: `snodo-conformance-key-${firstKey.toLowerCase()}` }),
    configureBinary: fixture.configureBinary ?? ((binaryPath) => ({ binary: binaryPath })),
    coderConfig: fixture.coderConfig ?? {},
    attributionSamples: fixture.attributionSamples ?? DEFAULT_ATTRIBUTION_SAMPLES,
    hangTimeoutMs: fixture.timeouts?.hangTimeoutMs ?? 1000,
    killGraceMs: adapterOptions.killGraceMs,
    marginMs: fixture.timeouts?.marginMs ?? 2000,
    stdinTimeoutMs: fixture.timeouts?.stdinTimeoutMs ?? 3000,
    runTimeoutMs: fixture.timeouts?.runTimeoutMs ?? 30_000,
    outputMegabytes: fixture.output?.megabytes ?? 50,
    transcriptCapBytes: adapterOptions.transcriptCapBytes,
    memoryGrowthLimitBytes:
      fixture.output?.memoryGrowthLimitBytes ?? ((fixture.output?.megabytes ?? 50) * mebibyte) / 2,
  };
}
