import { CONFORMANCE_PROMPT } from '../conformance/conformance-prompt.js';
import type { FakeCliRecord } from '../fake-cli/fake-cli-record.js';
import { defineObligation } from './define-obligation.js';
import { type ObligationScope, showArgv } from './obligation-scope.js';

/** Runs the adapter once with `model` and returns what the fake CLI recorded. */
async function recordArgv(scope: ObligationScope, model: string | undefined): Promise<FakeCliRecord> {
  return scope.withRun({ scenario: { steps: scope.finalOutput() } }, async (run) => {
    await scope.expectSuccess(
      scope.doRun(run, { model }),
      `a run with ${model === undefined ? 'no model' : `model "${model}"`}`,
    );
    const record = run.fakeCli?.readRecord();
    scope.check(record !== undefined, 'doRun resolved but the CLI never ran (no record from the fake CLI).');
    return record;
  });
}

/** `value` as the CLI would read it from `argument`: the whole element, or the part after `--flag=`. */
function carries(argument: string, value: string): boolean {
  return argument === value || (argument.endsWith(`=${value}`) && argument.startsWith('-'));
}

/** The prompt reaches the CLI as exactly one argv element, byte for byte. */
export const argvPromptSingleArgument = defineObligation(
  'argv-prompt-single-argument',
  async (scope: ObligationScope) => {
    const { argv } = await recordArgv(scope, undefined);
    const carrying = argv.filter((argument) => carries(argument, CONFORMANCE_PROMPT));
    if (carrying.length === 1) return;
    if (carrying.length > 1)
      scope.fail(`the prompt reached the CLI ${carrying.length} times: ${showArgv(argv)}.`);
    const firstWords = CONFORMANCE_PROMPT.slice(0, 20);
    const pieces = argv.filter(
      (argument) =>
        argument.includes(firstWords) || (argument.length >= 8 && CONFORMANCE_PROMPT.includes(argument)),
    );
    scope.fail(
      'no argv element is the prompt exactly as written' +
        (pieces.length > 0 ? ` (it was split, quoted or expanded: ${showArgv(pieces)})` : '') +
        `. The CLI received ${showArgv(argv)}.`,
    );
  },
);

/** No model → no model flag and no empty argument; a model → it appears. */
export const argvModelFlagOnlyWithModel = defineObligation(
  'argv-model-flag-only-with-model',
  async (scope: ObligationScope) => {
    const model = scope.resolved.model;
    const withModel = (await recordArgv(scope, model)).argv;
    const index = withModel.findIndex((argument) => carries(argument, model));
    scope.check(index >= 0, `with model "${model}" the CLI never received it: ${showArgv(withModel)}.`);
    const carrying = withModel[index] ?? '';
    const flag =
      carrying === model
        ? withModel[index - 1]?.startsWith('-')
          ? withModel[index - 1]
          : undefined
        : undefined;
    const inlineFlag = carrying === model ? undefined : carrying.slice(0, carrying.length - model.length);

    const withoutModel = (await recordArgv(scope, undefined)).argv;
    const empty = withoutModel.findIndex((argument) => ['', 'undefined', 'null'].includes(argument));
    scope.check(
      empty < 0,
      `without a model the argv has a stray ${JSON.stringify(withoutModel[empty])} argument at position ${empty + 1}: ${showArgv(withoutModel)}.`,
    );
    scope.check(
      flag === undefined || !withoutModel.includes(flag),
      `without a model the argv still has the model flag "${flag}": ${showArgv(withoutModel)}.`,
    );
    scope.check(
      inlineFlag === undefined || !withoutModel.some((argument) => argument.startsWith(inlineFlag)),
      `without a model the argv still has "${inlineFlag}…": ${showArgv(withoutModel)}.`,
    );
  },
);

/** `<modelPrefix>x` reaches the CLI as `x`. */
export const modelNamespaceStripped = defineObligation(
  'model-namespace-stripped',
  async (scope: ObligationScope) => {
    const prefix = scope.adapter.modelPrefix ?? '';
    const model = scope.resolved.model;
    const namespaced = `${prefix}${model}`;
    const { argv } = await recordArgv(scope, namespaced);
    const leaked = argv.filter((argument) => argument.includes(namespaced));
    scope.check(
      leaked.length === 0,
      `request.model "${namespaced}" reached the CLI with its namespace: ${showArgv(leaked)}.`,
    );
    scope.check(
      argv.some((argument) => carries(argument, model)),
      `request.model "${namespaced}" should reach the CLI as "${model}", but no argument carries it: ${showArgv(argv)}.`,
    );
  },
);
