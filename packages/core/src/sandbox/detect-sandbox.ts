import { probeSandbox } from '@snodo/coder-sdk';
import type { SnodoConfig } from '../config/index.js';
import { type SandboxSetting, sandboxExecutable } from './sandbox-setting.js';

/** Whether this run's code-running steps will be sandboxed, and if not, why. */
export type SandboxAvailability =
  | { readonly kind: 'bubblewrap'; readonly executable: string }
  | { readonly kind: 'none'; readonly reason: string; readonly fix: string };

/**
 * Probes the sandbox the setting asks for (one `bwrap` start per process, cached by the SDK). `off` is
 * `none` without probing. Never throws: what to do with `none` depends on the mode (a warning under
 * `auto`, a refusal under `required`).
 */
export async function detectSandbox(
  setting: SandboxSetting,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SandboxAvailability> {
  if (setting.mode === 'off') {
    return {
      kind: 'none',
      reason: 'the sandbox is off (`execution.sandbox: off`)',
      fix: 'Set `execution.sandbox: auto` in .snodo/protocol.yml to run the coder and command gates contained.',
    };
  }
  const probe = await probeSandbox(probeOptions(setting.executable, env));
  return probe.available
    ? { kind: 'bubblewrap', executable: probe.executable }
    : { kind: 'none', reason: probe.reason, fix: probe.fix };
}

/**
 * Starts the probe `detectSandbox` will ask for, before the protocol that decides whether it is needed is
 * read: the probe (a bubblewrap start around `true`, 10–20 ms) runs while the protocol loads, and
 * `detectSandbox` then finds it in the SDK's per-process cache. A protocol with `execution.sandbox: off`
 * leaves it unused: wasted work, never a different answer. Never throws, like the probe itself.
 */
export function startSandboxProbe(
  config: SnodoConfig,
  env: Readonly<Record<string, string | undefined>>,
): void {
  // The cached promise is the one `detectSandbox` awaits; this handler only keeps a rejection that nobody
  // awaits yet from counting as unhandled.
  probeSandbox(probeOptions(sandboxExecutable(config, env), env)).catch(() => undefined);
}

function probeOptions(
  executable: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { executable?: string; pathEnvironment?: string } {
  return { ...(executable ? { executable } : {}), ...(env.PATH ? { pathEnvironment: env.PATH } : {}) };
}
