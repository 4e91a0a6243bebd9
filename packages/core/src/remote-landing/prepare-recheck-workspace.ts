import type { CoderV1Sandbox } from '@snodo/coder-sdk';
import { lastLines, lastNonEmptyLine } from '../gates/commands/output-tail.js';
import { runGateCommand } from '../gates/commands/run-gate-command.js';
import type { Protocol } from '../protocol/index.js';
import { copyIntoWorkspace } from '../workspace-setup/copy-into-workspace.js';
import { resolveWorkspaceSetup } from '../workspace-setup/resolve-workspace-setup.js';

/**
 * Readies the re-check's workspace as a task workspace is readied (SPEC §6): `copy_into_workspace` from the
 * lander's clone, then `execution.setup` (`auto`: from the lockfile) in the sandbox with the network on, as
 * setup runs for a job. A command gate such as `npm test` needs the installed packages. Returns the
 * problem in words (the command, how it ended, its last output line), or undefined when ready.
 */
export async function prepareRecheckWorkspace(options: {
  clone: string;
  protocol: Protocol;
  worktreePath: string;
  env: Readonly<Record<string, string | undefined>>;
  sandbox: CoderV1Sandbox | undefined;
  signal?: AbortSignal | undefined;
}): Promise<string | undefined> {
  const { execution } = options.protocol;
  const { worktreePath, env, sandbox } = options;
  if (execution.copy_into_workspace.length > 0) {
    await copyIntoWorkspace({
      repositoryRoot: options.clone,
      workspacePath: worktreePath,
      patterns: execution.copy_into_workspace,
    });
  }
  const plan = resolveWorkspaceSetup(execution.setup, worktreePath);
  if (plan.kind === 'skip') return undefined;
  const result = await runGateCommand({
    command: plan.command,
    cwd: worktreePath,
    env,
    timeoutMs: plan.timeoutSeconds * 1000,
    ...(options.signal ? { signal: options.signal } : {}),
    // Installs fetch packages: setup keeps the network, as in a task workspace.
    ...(sandbox ? { sandbox: { ...sandbox, network: true } } : {}),
  });
  if (result.outcome === 'exited' && result.exitCode === 0) return undefined;
  const how =
    result.outcome === 'exited'
      ? result.exitCode === null
        ? `was killed by ${result.signal ?? 'a signal'}`
        : `exited with code ${result.exitCode}`
      : result.outcome === 'spawn-failed'
        ? `could not start: ${result.spawnError ?? 'unknown cause'}`
        : result.outcome;
  const last = lastNonEmptyLine(lastLines(result.output, 15, 2000));
  return `the workspace setup ${plan.display} (${plan.source}) ${how}${last ? `: ${last}` : ''}`;
}
