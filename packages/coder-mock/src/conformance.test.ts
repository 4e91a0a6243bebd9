import { describeCoderConformance } from '@snodo/conformance';
import { createMockCoder } from './mock-adapter.js';

// The mock coder is engine-managed: the suite checks its spec shape, abort, usage and that it only
// proposes files; the CLI, commit and process obligations are skipped with the reason in their titles.
describeCoderConformance(() => createMockCoder(), { kind: 'engine-managed' });
