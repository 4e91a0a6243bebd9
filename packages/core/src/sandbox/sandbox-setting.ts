import type { SnodoConfig } from '../config/index.js';
import type { ProtocolExecution } from '../protocol/index.js';

/** `execution.sandbox`: whether code the coder could have written runs in a sandbox. */
export type SandboxMode = 'off' | 'auto' | 'required';

/** Strictness order: config may move the protocol's choice to the right, never to the left. */
const strictness: Readonly<Record<SandboxMode, number>> = { off: 0, auto: 1, required: 2 };

/** The sandbox settings that apply to a run, with where the mode came from. */
export interface SandboxSetting {
  readonly mode: SandboxMode;
  /** `protocol` (`execution.sandbox`) or `config` (`sandbox.mode`, stricter than the protocol's). */
  readonly modeSource: 'protocol' | 'config';
  /** Whether sandboxed command gates keep the network (coders always do). */
  readonly gateNetwork: boolean;
  /** `bwrap` to use: `SNODO_SANDBOX_EXECUTABLE`, else config `sandbox.executable`, else from PATH. */
  readonly executable?: string;
}

/** The `bwrap` to use: `SNODO_SANDBOX_EXECUTABLE`, else config `sandbox.executable`; unset: from PATH. */
export function sandboxExecutable(
  config: SnodoConfig,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return env.SNODO_SANDBOX_EXECUTABLE || config.sandbox?.executable || undefined;
}

/**
 * Combines the protocol's `execution.sandbox` / `sandbox_network` with this machine's config (SPEC §12):
 * the stricter mode wins (off < auto < required), and the network is off for gates when either says so. A
 * config `off` under a protocol's `auto` is ignored: a user may tighten the team's rules, never loosen them.
 */
export function resolveSandboxSetting(options: {
  execution: Pick<ProtocolExecution, 'sandbox' | 'sandbox_network'>;
  config: SnodoConfig;
  env: Readonly<Record<string, string | undefined>>;
}): SandboxSetting {
  const protocolMode = options.execution.sandbox;
  const configMode = options.config.sandbox?.mode;
  const stricter = configMode !== undefined && strictness[configMode] > strictness[protocolMode];
  const executable = sandboxExecutable(options.config, options.env);
  return {
    mode: stricter ? (configMode as SandboxMode) : protocolMode,
    modeSource: stricter ? 'config' : 'protocol',
    gateNetwork: options.execution.sandbox_network && options.config.sandbox?.network !== false,
    ...(executable ? { executable } : {}),
  };
}
