import { CoderUnknownError } from '@snodo/coder-sdk';
import type { CoderRegistry } from './coder-registry.js';
import { findCoderByModel } from './find-coder-by-model.js';

/**
 * Which rule of SPEC §4.3 chose the coder. Recorded in the audit event `coder-resolve` and in
 * `state.json`, so a user can see why a coder ran.
 */
export type CoderNameSource =
  | 'mock-flag'
  | 'coder-flag'
  | 'protocol-mode'
  | 'model-prefix'
  | 'model-name'
  | 'default';

/** The inputs of coder selection, one per precedence level. */
export interface ResolveCoderNameInput {
  /** The registry whose registrations supply every routing fact. */
  readonly registry: Pick<CoderRegistry, 'list' | 'has' | 'defaultCoderId' | 'mockCoderId'>;
  /** `--mock` was given. */
  readonly mock?: boolean;
  /** The id after `--coder`. */
  readonly coderFlag?: string;
  /** The `coder` field of the mode that will run (from `.snodo/protocol.yml`). */
  readonly modeCoder?: string;
  /** The mode's id, only to name it in an error. */
  readonly modeId?: string;
  /**
   * The model string the user asked for: `-m`, else the top-level `model` from config. Only its namespace
   * or bare-name beginning matters here.
   */
  readonly model?: string;
}

/** The chosen coder and the rule that chose it. */
export interface ResolvedCoderName {
  /** A registered coder id. */
  readonly coderId: string;
  /** Which precedence level decided. */
  readonly source: CoderNameSource;
}

/**
 * Chooses the coder for a run, SPEC §4.3, first match wins:
 * 1. `--mock` → the registry's mock coder; 2. `--coder <id>`; 3. the mode's `coder`; 4. the model string:
 * a registered namespace (longest first), then a bare-name beginning; 5. the registry's default coder.
 *
 * An unknown id at any level is an error listing the registered ids; selection never falls back to another
 * coder, because running a different coder than the one asked for would be a silent substitution.
 *
 * @throws {CoderUnknownError} (`CODER_UNKNOWN`), its message saying where the id came from.
 */
export function resolveCoderName(input: ResolveCoderNameInput): ResolvedCoderName {
  const { registry } = input;
  const unknown = (coderId: string, origin: string) => {
    const error = new CoderUnknownError({
      requestedId: coderId,
      registeredIds: registry.list().map((registration) => registration.id),
    });
    // The id may come from the protocol rather than the command line; say so, or the user hunts for a flag.
    error.message = `${origin} ${error.message}`;
    return error;
  };

  if (input.mock === true) {
    if (registry.mockCoderId === undefined)
      throw unknown('mock', '--mock needs a mock coder, and none is registered.');
    return { coderId: registry.mockCoderId, source: 'mock-flag' };
  }
  const coderFlag = present(input.coderFlag);
  if (coderFlag !== undefined) {
    if (!registry.has(coderFlag)) throw unknown(coderFlag, `--coder ${coderFlag}:`);
    return { coderId: coderFlag, source: 'coder-flag' };
  }
  const modeCoder = present(input.modeCoder);
  if (modeCoder !== undefined) {
    if (!registry.has(modeCoder))
      throw unknown(
        modeCoder,
        `${modeName(input.modeId)} in .snodo/protocol.yml names coder "${modeCoder}":`,
      );
    return { coderId: modeCoder, source: 'protocol-mode' };
  }
  const model = present(input.model);
  const match = model === undefined ? undefined : findCoderByModel(model, registry.list());
  if (match !== undefined) {
    return {
      coderId: match.registration.id,
      source: match.kind === 'namespace' ? 'model-prefix' : 'model-name',
    };
  }
  return { coderId: registry.defaultCoderId, source: 'default' };
}

/** A flag or field counts only when it holds text; an empty `--coder ""` is treated as absent. */
function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function modeName(modeId: string | undefined): string {
  return modeId === undefined ? 'The mode' : `Mode "${modeId}"`;
}
