/**
 * `@snodo/coder-sdk/utils`: the helpers adapters share, for coders that do not (or not only) extend the
 * SDK's base classes — a server-backed coder, an engine-managed one, a CLI driven by hand. Each is the one
 * the base classes use themselves, so a coder written on them behaves like the built-in ones.
 */
export { parseCoderConfig } from '../in-place/coder-settings.js';
export { coderStateDirectory } from '../in-place/coder-state-directory.js';
export { findExecutable } from '../process/find-executable.js';
export { DEFAULT_FINAL_EVENT_GRACE_MS, DEFAULT_KILL_GRACE_MS } from '../process/grace-defaults.js';
export { killTaggedProcesses, PROCESS_TAG_VARIABLE } from '../process/kill-tagged-processes.js';
export {
  type ExecutableVersionProbe,
  type ProbeExecutableVersionOptions,
  probeExecutableVersion,
} from '../process/probe-executable-version.js';
export { signalGroup } from '../process/process-group.js';
export { stripModelPrefix } from '../process/strip-model-prefix.js';
export { withProbeEnvironment } from '../subprocess/with-probe-environment.js';
export { findVersionInText } from '../version/version-range.js';
