export { buildJobSandbox, type JobSandboxOptions } from './build-job-sandbox.js';
export { detectSandbox, type SandboxAvailability } from './detect-sandbox.js';
export { resolveSandboxSetting, type SandboxMode, type SandboxSetting } from './sandbox-setting.js';
export { SandboxUnavailableError } from './sandbox-unavailable-error.js';
