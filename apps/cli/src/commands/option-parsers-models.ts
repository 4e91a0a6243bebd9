import { CliError } from '../errors/cli-error.js';

/** What repeated `-m` values mean: at most one judging model and one coder model. */
export interface ModelFlags {
  /** A plain `provider/model`: the judging model (and an engine-managed coder's). */
  readonly judging?: string | undefined;
  /** A model in a coder's namespace (`opencode-cli/openai/gpt-4o`): that coder's model. */
  readonly coder?: string | undefined;
}

/**
 * Splits the `-m` values of one command line by role (SPEC §9: `-m` may be given twice, one judging model
 * and one namespaced coder model). `isCoderModel` is core's reading of a model string (a registered coder's
 * namespace), so the CLI keeps no copy of that rule. Two of one role, or more than two, are refused naming
 * them (commander kept the last one silently).
 */
export function splitModelFlags(
  values: readonly string[],
  isCoderModel: (model: string) => boolean,
): ModelFlags {
  if (values.length <= 1) return values[0] === undefined ? {} : classify(values[0], isCoderModel);
  if (values.length > 2) {
    throw new CliError('CLI_USAGE', {
      message: `-m was given ${values.length} times (${values.join(', ')}); it takes one judging model and one coder model.`,
      fix: 'snodo run "<task>" -m <provider/model> -m <coder>/<model>',
    });
  }
  const [first = '', second = ''] = values;
  const firstIsCoder = isCoderModel(first);
  if (firstIsCoder === isCoderModel(second)) {
    const role = firstIsCoder
      ? 'coder models (in a coder’s namespace)'
      : 'judging models (plain provider/model)';
    throw new CliError('CLI_USAGE', {
      message: `-m was given two ${role}: ${first} and ${second}. Give one judging model and one coder model.`,
      fix: firstIsCoder
        ? `snodo run "<task>" -m ${first}   (and -m <provider/model> for the judges)`
        : `snodo run "<task>" -m ${first}   (and -m <coder>/<model> for the coder)`,
    });
  }
  return firstIsCoder ? { judging: second, coder: first } : { judging: first, coder: second };
}

function classify(model: string, isCoderModel: (model: string) => boolean): ModelFlags {
  return isCoderModel(model) ? { coder: model } : { judging: model };
}
