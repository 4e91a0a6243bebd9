import { describe, it } from 'vitest';
import { createExampleCoder } from '../example/example-coder.js';
import {
  AlwaysModelFlagCoder,
  InheritingEnvironmentCoder,
  KeyOnlyInAvailabilityCoder,
  LateBinaryCheckCoder,
  ShellSpawningCoder,
  SplitPromptCoder,
  UnstrippedModelCoder,
  withId,
} from './broken-invocation-coders.js';
import { expectConformance } from './expect-conformance.js';

// Each deliberately broken adapter fails its obligation, with that obligation's name, and still passes
// the obligations closest to it.
describe('adapters that start the CLI wrongly fail the obligation they break', () => {
  it('spec-shape: an id that is not kebab case', async () => {
    await expectConformance((options) => withId(createExampleCoder(options), 'Example Coder'), {
      fails: { 'spec-shape': 'id "Example Coder" is not kebab case' },
      passes: ['argv-prompt-single-argument'],
    });
  }, 30_000);

  it('argv-prompt-single-argument: the prompt split in two arguments', async () => {
    await expectConformance((options) => new SplitPromptCoder(options), {
      fails: { 'argv-prompt-single-argument': 'no argv element is the prompt exactly as written' },
      passes: ['argv-model-flag-only-with-model', 'model-namespace-stripped'],
    });
  }, 30_000);

  it('argv-prompt-single-argument: the CLI spawned through a shell', async () => {
    // The shell splits the prompt at its quotes and expands $(…); the CLI still starts, so everything
    // that does not look at the prompt passes.
    await expectConformance((options) => new ShellSpawningCoder(options), {
      fails: { 'argv-prompt-single-argument': 'split, quoted or expanded' },
      passes: ['environment-allow-list', 'one-commit-equals-change'],
    });
  }, 30_000);

  it('argv-model-flag-only-with-model: --model added without a model', async () => {
    await expectConformance((options) => new AlwaysModelFlagCoder(options), {
      fails: { 'argv-model-flag-only-with-model': 'a stray "" argument' },
      passes: ['argv-prompt-single-argument', 'model-namespace-stripped'],
    });
  }, 30_000);

  it('model-namespace-stripped: the model taken from the request, prefix and all', async () => {
    await expectConformance((options) => new UnstrippedModelCoder(options), {
      fails: { 'model-namespace-stripped': 'reached the CLI with its namespace' },
      passes: ['argv-model-flag-only-with-model', 'argv-prompt-single-argument'],
    });
  }, 30_000);

  it('missing-binary-not-installed: the lookup failure ignored until the spawn fails', async () => {
    await expectConformance((options) => new LateBinaryCheckCoder(options), {
      fails: { 'missing-binary-not-installed': 'although nothing could run' },
      passes: ['missing-credentials', 'spec-shape'],
    });
  }, 30_000);

  it('missing-credentials: the key checked only by checkAvailability', async () => {
    await expectConformance((options) => new KeyOnlyInAvailabilityCoder(options), {
      fails: { 'missing-credentials': 'expected CODER_CREDENTIALS_MISSING, but doRun resolved' },
      passes: ['missing-binary-not-installed', 'environment-allow-list'],
    });
  }, 30_000);

  it('environment-allow-list: process.env handed to the CLI', async () => {
    await expectConformance((options) => new InheritingEnvironmentCoder(options), {
      fails: { 'environment-allow-list': 'planted in process.env reached the CLI' },
      passes: ['one-commit-equals-change', 'missing-credentials'],
    });
  }, 30_000);
});
