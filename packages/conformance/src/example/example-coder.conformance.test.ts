import { describeCoderConformance } from '../conformance/describe-coder-conformance.js';
import { createExampleCoder } from './example-coder.js';

// The example adapter passes the whole Tier 1 suite, exactly as an adapter author's own test file would run it.
describeCoderConformance((options) => createExampleCoder(options), {
  fakeCli: {
    versionOutput: 'example-coder 1.4.2',
    usageOutput:
      '{"type":"result","usage":{"input_tokens":1200,"output_tokens":340,"cached_input_tokens":200},"total_cost_usd":0.0123}',
  },
});
