import { probeSandbox, type SandboxProbe } from '@snodo/coder-sdk';
import type { SandboxSetting } from './sandbox-setting.js';

/** Whether this run's code-running steps will be sandboxed, and if not, why. */
export type SandboxAvailability =
  | { readonly kind: 'bubblewrap'; readonly executable: string }
  | { readonly kind: 'none'; readonly reason: string; readonly fix: string };

/**
 * Starts the probe `detectSandbox` will ask for, without waiting: `openProject` calls it as soon as the
 * executable is known (config and environment) so the bwrap start overlaps reading the repository and the
 * protocol, and `detectSandbox` gets the SDK's cached answer. The probe never rejects.
 */
export function startSandboxProbe(
  executable: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SandboxProbe> {
  return probeSandbox({
    ...(executable ? { executable } : {}),
    ...(env.PATH ? { pathEnvironment: env.PATH } : {}),
  });
}

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
  const probe = await startSandboxProbe(setting.executable, env);
  return probe.available
    ? { kind: 'bubblewrap', executable: probe.executable }
    : { kind: 'none', reason: probe.reason, fix: probe.fix };
}
