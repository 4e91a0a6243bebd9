import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_SPECIFICATION_UNSUPPORTED';

/**
 * A value offered as a coder is not a `coder-v1` adapter: its `specificationVersion` is another version
 * (an adapter built for a newer snodo) or it is missing a member the contract requires.
 */
export class CoderSpecificationUnsupportedError extends SnodoError<'CODER_SPECIFICATION_UNSUPPORTED'> {
  /** The coder id the value declared, when it has one. */
  readonly coderId: string | undefined;
  /** The `specificationVersion` it declared (anything, as found). */
  readonly specificationVersion: unknown;

  constructor(options: {
    coderId?: string;
    specificationVersion: unknown;
    /** What is wrong beyond the tag, e.g. "doRun is not a function". */
    problem?: string;
    cause?: unknown;
  }) {
    const who = options.coderId === undefined ? 'A coder' : `Coder "${options.coderId}"`;
    const declared =
      typeof options.specificationVersion === 'string'
        ? `declares specification "${options.specificationVersion}"`
        : 'declares no specificationVersion';
    const problem =
      options.problem ??
      (options.specificationVersion === 'coder-v1' ? 'is not a complete coder-v1 adapter' : declared);
    super('CODER_SPECIFICATION_UNSUPPORTED', {
      message:
        `${who} ${problem}, but this snodo runs coder-v1 adapters only. Update snodo, or install a ` +
        'version of the coder package built for coder-v1.',
      cause: options.cause,
    });
    this.name = 'CoderSpecificationUnsupportedError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.specificationVersion = options.specificationVersion;
  }

  static override isInstance(value: unknown): value is CoderSpecificationUnsupportedError {
    return SnodoError.hasMarker(value, marker);
  }
}
