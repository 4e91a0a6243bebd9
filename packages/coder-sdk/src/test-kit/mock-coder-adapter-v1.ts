import type { CoderAdapterV1, CoderV1Kind } from '../v1/coder-v1.js';
import type { CoderV1Availability, CoderV1AvailabilityOptions } from '../v1/coder-v1-availability.js';
import type { CoderV1Credentials } from '../v1/coder-v1-credentials.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { CoderV1Result } from '../v1/coder-v1-result.js';

/** How `MockCoderAdapterV1.doRun` answers. */
export type MockCoderDoRun =
  | ((request: CoderV1Request) => CoderV1Result | Promise<CoderV1Result>)
  | CoderV1Result
  | readonly CoderV1Result[];

/** Options of `MockCoderAdapterV1`; every one has a default. */
export interface MockCoderAdapterV1Options {
  /** Default `mock-coder`. */
  readonly id?: string;
  /** Default `Mock Coder`. */
  readonly displayName?: string;
  /** Default `engine-managed`. */
  readonly kind?: CoderV1Kind;
  /** Default `undefined` (no model routes to it). */
  readonly modelPrefix?: string;
  /** Default `nothing to install (test double)`. */
  readonly installHint?: string;
  /** Default `{ envVars: [] }`. */
  readonly credentials?: CoderV1Credentials;
  /** The capability flags to declare. */
  readonly supportsUsage?: boolean;
  readonly supportsAbort?: boolean;
  readonly supportsResume?: boolean;
  readonly supportsStreamingEvents?: boolean;
  /** What `checkAvailability` answers: a value or a function. Default: ready, nothing needed. */
  readonly availability?:
    | CoderV1Availability
    | ((options: CoderV1AvailabilityOptions) => CoderV1Availability | Promise<CoderV1Availability>);
  /**
   * What `doRun` answers: a function (called with the request; it may throw a typed error), one result
   * (returned every time), or a list (one per call, in order; a call past the end throws). Default: a
   * `no-changes` result.
   */
  readonly doRun?: MockCoderDoRun;
}

const readyAvailability: CoderV1Availability = { ready: true, installed: true, credentials: 'not-needed' };

const noChanges: CoderV1Result = { status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 };

/**
 * A recording `CoderAdapterV1` for tests of code that drives coders (core, the CLI, the conformance kit's
 * own tests), in the manner of the AI SDK's mock language models: configure the answers, run, then read
 * `doRunCalls` and `checkAvailabilityCalls`. It touches no file and starts no process. It imports no test
 * framework, so it works under any runner.
 */
export class MockCoderAdapterV1 implements CoderAdapterV1 {
  readonly specificationVersion = 'coder-v1' as const;
  readonly id: string;
  readonly displayName: string;
  readonly kind: CoderV1Kind;
  readonly modelPrefix: string | undefined;
  readonly installHint: string;
  readonly credentials: CoderV1Credentials;
  readonly supportsUsage?: boolean;
  readonly supportsAbort?: boolean;
  readonly supportsResume?: boolean;
  readonly supportsStreamingEvents?: boolean;

  /** Every request `doRun` received, in order. */
  readonly doRunCalls: CoderV1Request[] = [];
  /** Every options object `checkAvailability` received, in order. */
  readonly checkAvailabilityCalls: CoderV1AvailabilityOptions[] = [];

  private readonly availability: NonNullable<MockCoderAdapterV1Options['availability']>;
  private readonly answer: MockCoderDoRun;

  constructor(options: MockCoderAdapterV1Options = {}) {
    this.id = options.id ?? 'mock-coder';
    this.displayName = options.displayName ?? 'Mock Coder';
    this.kind = options.kind ?? 'engine-managed';
    this.modelPrefix = options.modelPrefix;
    this.installHint = options.installHint ?? 'nothing to install (test double)';
    this.credentials = options.credentials ?? { envVars: [] };
    this.supportsUsage = options.supportsUsage;
    this.supportsAbort = options.supportsAbort;
    this.supportsResume = options.supportsResume;
    this.supportsStreamingEvents = options.supportsStreamingEvents;
    this.availability = options.availability ?? readyAvailability;
    this.answer = options.doRun ?? noChanges;
  }

  async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    this.checkAvailabilityCalls.push(options);
    return typeof this.availability === 'function' ? this.availability(options) : this.availability;
  }

  async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    this.doRunCalls.push(request);
    const answer = this.answer;
    if (typeof answer === 'function') return answer(request);
    if (isResultList(answer)) {
      const result = answer[this.doRunCalls.length - 1];
      if (result === undefined) {
        throw new Error(
          `MockCoderAdapterV1 "${this.id}": doRun was called ${this.doRunCalls.length} times but only ` +
            `${answer.length} results were configured.`,
        );
      }
      return result;
    }
    return answer;
  }
}

function isResultList(answer: MockCoderDoRun): answer is readonly CoderV1Result[] {
  return Array.isArray(answer);
}
