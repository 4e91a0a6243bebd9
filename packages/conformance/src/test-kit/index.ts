export { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from './temporary-run.js';
export { createTestWorkspace, type TestWorkspace } from './test-workspace.js';
