import { probeSandbox } from '@snodo/coder-sdk';
import type { SnodoConfig } from '@snodo/core';

/** Whether a sandbox works on this machine, as `snodo coders` and `snodo doctor` report it. */
export interface SandboxStatus {
  readonly available: boolean;
  readonly executable?: string;
  readonly version?: string;
  readonly reason?: string;
  readonly fix?: string;
}

/**
 * Probes bubblewrap the way a run would (`SNODO_SANDBOX_EXECUTABLE`, config `sandbox.executable`, else
 * PATH), and asks its version for the report.
 */
export async function sandboxStatus(
  config: SnodoConfig,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SandboxStatus> {
  const executable = env.SNODO_SANDBOX_EXECUTABLE || config.sandbox?.executable;
  const probe = await probeSandbox({
    ...(executable ? { executable } : {}),
    ...(env.PATH ? { pathEnvironment: env.PATH } : {}),
    includeVersion: true,
  });
  return probe.available
    ? { available: true, executable: probe.executable, ...(probe.version ? { version: probe.version } : {}) }
    : { available: false, reason: probe.reason, fix: probe.fix };
}

/** One line about the sandbox, for `snodo coders`. */
export function describeSandboxStatus(status: SandboxStatus): string {
  if (status.available) {
    return `sandbox: bubblewrap${status.version ? ` ${status.version}` : ''} (${status.executable}): coders marked "yes" and command gates run contained`;
  }
  return `sandbox: none here: ${status.reason}. ${status.fix ?? ''}`.trim();
}
