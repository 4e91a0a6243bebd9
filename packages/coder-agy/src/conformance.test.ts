import { readFileSync } from 'node:fs';
import { describeCoderConformance } from '@snodo/conformance';
import { createAgyCoder } from './agy-adapter.js';

/** The print-mode envelope as the Antigravity CLI documents it (agy is not on npm; see COMPAT.md). */
const documentedEnvelope = readFileSync(
  new URL('./__fixtures__/agy-1.2.14.envelope.json', import.meta.url),
  'utf8',
);

describeCoderConformance((options) => createAgyCoder(options), {
  fakeCli: { versionOutput: '1.2.14\n', usageOutput: documentedEnvelope },
});
