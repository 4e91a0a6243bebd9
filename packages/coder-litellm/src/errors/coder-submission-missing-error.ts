import { type CoderV1Usage, SnodoError } from '@snodo/coder-sdk';

const name = 'CoderSubmissionMissingError';
const marker = 'snodo.error.CODER_SUBMISSION_MISSING';
const symbol = Symbol.for(marker);

/** How much of the model's last answer the message quotes. */
const PREVIEW_LENGTH = 200;

/**
 * The model answered in prose instead of calling `submit_files`, was told once to deliver its change
 * through the tool, and answered in prose again (with no JSON file list snodo could read either). Nothing
 * is written: an answer without files is never reported as a successful change.
 */
export class CoderSubmissionMissingError extends SnodoError<'CODER_SUBMISSION_MISSING'> {
  private readonly [symbol] = true;

  /** The coder's id. */
  readonly coderId: string;
  /** The canonical model string. */
  readonly model: string;
  /** How many model calls were made. */
  readonly turns: number;
  /** The finish reason of the last answer (`stop`, `content-filter`…). */
  readonly finishReason: string;
  /** The model's last answer, as written. */
  readonly text: string;
  /** Tokens and cost spent on the attempt. */
  readonly usage: CoderV1Usage;

  constructor(options: {
    coderId: string;
    displayName: string;
    model: string;
    turns: number;
    finishReason: string;
    text: string;
    usage: CoderV1Usage;
  }) {
    const oneLine = options.text.replace(/\s+/g, ' ').trim();
    const preview =
      oneLine === ''
        ? 'an empty answer'
        : `"${oneLine.length > PREVIEW_LENGTH ? `${oneLine.slice(0, PREVIEW_LENGTH)}…` : oneLine}"`;
    super('CODER_SUBMISSION_MISSING', {
      message:
        `${options.displayName}: ${options.model} never called submit_files; after ${options.turns} turns, ` +
        `one of them a reminder to use the tool, it still answered in prose (finish reason ` +
        `"${options.finishReason}"): ${preview}. Nothing was written. Use a model that supports tool ` +
        'calls, or rephrase the task.',
    });
    this.name = name;
    this.coderId = options.coderId;
    this.model = options.model;
    this.turns = options.turns;
    this.finishReason = options.finishReason;
    this.text = options.text;
    this.usage = options.usage;
  }

  static override isInstance(value: unknown): value is CoderSubmissionMissingError {
    return SnodoError.hasMarker(value, marker);
  }
}
