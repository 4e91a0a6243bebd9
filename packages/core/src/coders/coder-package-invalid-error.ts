import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_PACKAGE_INVALID';

/** The export names the package loader accepts, in the order it tries them (documented in the READMEs). */
export const coderPackageExportNames = ['registration', 'default', 'createCoder', 'coder'] as const;

/** What the loader found wrong with an installed coder package. */
export type CoderPackageProblem =
  /** It imported, but none of `coderPackageExportNames` holds a registration, an adapter or a factory. */
  | { readonly kind: 'exports-no-coder'; readonly exportedNames: readonly string[] }
  /** `import()` of its entry threw (a syntax error, a missing dependency, top-level code that failed). */
  | { readonly kind: 'import-failed'; readonly entry: string; readonly reason: string }
  /** Its registration's `load` or its factory threw something that is not a snodo error. */
  | { readonly kind: 'load-failed'; readonly exportName: string; readonly reason: string };

/**
 * A coder package named in config (`coders.<id>.package`) IS installed, but cannot give snodo a coder. A
 * class of its own so `snodo coders` can tell "installed, but broken" from "not installed" (which gets an
 * `npm install` hint that would not help here) and show `fix`.
 */
export class CoderPackageInvalidError extends SnodoError<'CODER_PACKAGE_INVALID'> {
  /** The config key under `coders`. */
  readonly coderId: string;
  /** The npm package name from config. */
  readonly packageName: string;
  /** What is wrong. */
  readonly problem: CoderPackageProblem;
  /** The step that makes the package usable, one sentence. */
  readonly fix: string;

  constructor(options: {
    coderId: string;
    packageName: string;
    problem: CoderPackageProblem;
    cause?: unknown;
  }) {
    const { coderId, packageName, problem } = options;
    const where = `The package ${packageName} (config coders.${coderId}.package)`;
    // A factory under another name (the SDK README's `createCustomCoder`) is one re-export away.
    const factory =
      problem.kind === 'exports-no-coder'
        ? problem.exportedNames.find((name) => /^create\w*Coder$/.test(name))
        : undefined;
    const fix =
      problem.kind === 'exports-no-coder'
        ? 'export `registration` (a CoderRegistrationV1 whose `load` returns the adapter), or a default ' +
          'export, `createCoder` or `coder` holding a coder-v1 adapter or a function returning one' +
          (factory === undefined ? '' : ` (for example \`export { ${factory} as createCoder }\`)`)
        : `fix the error above in ${packageName} (or reinstall it: \`npm install ${packageName}\`)`;
    const found =
      problem.kind === 'exports-no-coder'
        ? `is installed, but exports no coder: it exports ${problem.exportedNames.join(', ') || '(nothing)'}`
        : problem.kind === 'import-failed'
          ? `is installed, but importing ${problem.entry} failed: ${problem.reason}`
          : `is installed, but building its coder (export \`${problem.exportName}\`) failed: ${problem.reason}`;
    super('CODER_PACKAGE_INVALID', {
      message: `${where} ${found}. To fix it, ${fix}.`,
      cause: options.cause,
    });
    this.name = 'CoderPackageInvalidError';
    SnodoError.mark(this, marker);
    this.coderId = coderId;
    this.packageName = packageName;
    this.problem = problem;
    this.fix = fix.charAt(0).toUpperCase() + fix.slice(1);
  }

  /** `true` for this error from any copy of core (a `Symbol.for` marker, not `instanceof`). */
  static override isInstance(value: unknown): value is CoderPackageInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
