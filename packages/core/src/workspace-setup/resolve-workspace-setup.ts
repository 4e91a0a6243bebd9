import { displayArgv } from '../gates/commands/output-tail.js';
import { DEFAULT_SETUP_TIMEOUT_SECONDS, type ProtocolSetup } from '../protocol/protocol-setup-schema.js';
import { detectWorkspaceSetup } from './detect-workspace-setup.js';

/** A command as the gate runner takes it: through `sh -c`, or an argv run directly. */
export type SetupCommand = { readonly shell: string } | { readonly argv: readonly string[] };

/** What setup will do in one workspace, decided from `execution.setup` and the workspace's files. */
export type WorkspaceSetupPlan =
  | {
      readonly kind: 'skip';
      /** Why nothing runs, in words for the progress line: `execution.setup is none`. */
      readonly reason: string;
    }
  | {
      readonly kind: 'run';
      readonly command: SetupCommand;
      /** The command as people read it (`npm ci --prefer-offline …`). */
      readonly display: string;
      /** `execution.setup`, or what detection read (`lockfile package-lock.json`). */
      readonly source: string;
      /** The program an argv starts, checked on PATH before it runs; absent for a shell string. */
      readonly tool?: string;
      readonly timeoutSeconds: number;
    };

/**
 * Decides setup for the workspace at `directory` (SPEC §6): `auto` (the default) runs what
 * `detectWorkspaceSetup` finds there and skips, saying so, when it finds nothing; `none` skips; a string
 * runs through `sh -c` and a list directly, exactly like a command gate's `test_command`. The mapping form
 * adds `timeout_seconds` (default 900).
 */
export function resolveWorkspaceSetup(setting: ProtocolSetup, directory: string): WorkspaceSetupPlan {
  const command = typeof setting === 'object' && !Array.isArray(setting) ? setting.command : setting;
  const timeoutSeconds =
    (typeof setting === 'object' && !Array.isArray(setting) ? setting.timeout_seconds : undefined) ??
    DEFAULT_SETUP_TIMEOUT_SECONDS;
  if (command === 'none') return { kind: 'skip', reason: 'execution.setup is none' };
  if (command === 'auto') {
    const detected = detectWorkspaceSetup(directory);
    if (detected === undefined) {
      return {
        kind: 'skip',
        reason: 'no lockfile or manifest to install from (execution.setup: auto detected nothing)',
      };
    }
    return {
      kind: 'run',
      command: { argv: detected.command },
      display: displayArgv(detected.command),
      source: detected.source,
      tool: detected.tool,
      timeoutSeconds,
    };
  }
  if (typeof command === 'string') {
    return {
      kind: 'run',
      command: { shell: command },
      display: command,
      source: 'execution.setup',
      timeoutSeconds,
    };
  }
  return {
    kind: 'run',
    command: { argv: command },
    display: displayArgv(command),
    source: 'execution.setup',
    tool: command[0] as string,
    timeoutSeconds,
  };
}
