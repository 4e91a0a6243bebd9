import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.MODEL_CODER_MISMATCH';

/** The running coder as the error describes it. */
export interface MismatchedCoder {
  /** The coder id. */
  readonly id: string;
  /** Its human name. */
  readonly displayName: string;
  /** Its model namespace, when it has one. */
  readonly modelPrefix?: string;
}

/**
 * `-m` names a model in one coder's namespace while another coder was chosen (by `--coder`, or by the
 * protocol mode's `coder`). A namespaced model sets that coder's own model, so running a different coder
 * would silently drop it. The message names both coders and the two ways out. Exit code 2.
 */
export class ModelCoderMismatchError extends SnodoError<'MODEL_CODER_MISMATCH'> {
  /** The `-m` value as given. */
  readonly model: string;
  /** The coder that was chosen. */
  readonly coderId: string;
  /** The coder whose namespace the model carries. */
  readonly modelCoderId: string;
  /** What chose the running coder. */
  readonly chosenBy: 'coder-flag' | 'protocol-mode';

  constructor(options: {
    model: string;
    coder: MismatchedCoder;
    modelCoder: MismatchedCoder;
    chosenBy: 'coder-flag' | 'protocol-mode';
    modeId?: string;
  }) {
    const { coder, modelCoder } = options;
    const chooser =
      options.chosenBy === 'coder-flag'
        ? `--coder ${coder.id}`
        : `mode ${options.modeId === undefined ? '' : `"${options.modeId}" `}in .snodo/protocol.yml`;
    const firstFix =
      options.chosenBy === 'coder-flag'
        ? `run ${modelCoder.displayName} with --coder ${modelCoder.id} (or drop --coder)`
        : `run ${modelCoder.displayName} with --coder ${modelCoder.id}, which overrides the mode`;
    const secondFix =
      coder.modelPrefix === undefined
        ? `keep ${coder.displayName} and pass a plain model (-m <provider>/<model>)`
        : `keep ${coder.displayName} and give it a model as -m ${coder.modelPrefix}<model>`;
    super('MODEL_CODER_MISMATCH', {
      message:
        `-m ${options.model} is a model for ${modelCoder.displayName} (coder ${modelCoder.id}), but ${chooser} ` +
        `selects ${coder.displayName} (coder ${coder.id}). Either ${firstFix}, or ${secondFix}.`,
    });
    this.name = 'ModelCoderMismatchError';
    SnodoError.mark(this, marker);
    this.model = options.model;
    this.coderId = coder.id;
    this.modelCoderId = modelCoder.id;
    this.chosenBy = options.chosenBy;
  }

  static override isInstance(value: unknown): value is ModelCoderMismatchError {
    return SnodoError.hasMarker(value, marker);
  }
}
