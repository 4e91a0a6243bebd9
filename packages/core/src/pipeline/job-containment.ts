import { existsSync, mkdirSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { CoderAdapterV1, CoderV1Sandbox } from '@snodo/coder-sdk';
import { workspaceSandboxMounts } from '../isolation/index.js';
import type { JobPaths } from '../jobs/index.js';
import { buildJobSandbox } from '../sandbox/build-job-sandbox.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import type { RunContext } from './run-context.js';
import type { RunWorkspace } from './task-workspace.js';

/** How one job's code-running steps are contained, and what goes on record about it. */
export interface JobContainment {
  /** The sandbox the coder's processes run in; absent for engine-managed coders and when there is none. */
  readonly coderSandbox: CoderV1Sandbox | undefined;
  /** The sandbox command gates (and setup) run in; absent when there is none. */
  readonly gateSandbox: CoderV1Sandbox | undefined;
  /** `state.json`'s `sandbox`, the audit log's `sandbox` fields and `snodo meta`'s line. */
  readonly record: {
    readonly kind: 'bubblewrap' | 'none';
    readonly reason?: string;
    readonly gateNetwork: boolean;
  };
}

/**
 * Decides and builds the containment of one job (SPEC §12) once its workspace exists: the same sandbox for
 * the coder (network on: it reaches its LLM) and for command gates (network as `execution.sandbox_network`
 * says), both from `buildJobSandbox` with the workspace's own mounts. There is none with `--no-isolation`
 * (the user's checkout cannot be contained), when bubblewrap is unavailable, or for the coder's part when
 * an in-place coder does not run its processes through the sandbox; under `execution.sandbox: required`
 * each of those is `SandboxUnavailableError` instead.
 */
export function prepareJobContainment(options: {
  context: RunContext;
  paths: JobPaths;
  workspace: RunWorkspace;
  coder: Pick<CoderAdapterV1, 'kind' | 'displayName' | 'supportsSandbox'> | undefined;
  coderExecutable?: string | undefined;
  /** The coder's settings: absolute paths in a command template (`[node, /opt/tools/x.mjs, …]`) stay visible. */
  coderConfig?: Readonly<Record<string, unknown>>;
}): JobContainment {
  const { context, workspace, coder } = options;
  const { setting, availability } = context.sandbox;
  const none = (reason: string, fix: string): JobContainment => {
    if (setting.mode === 'required')
      throw new SandboxUnavailableError({ reason, fix, source: setting.modeSource });
    return {
      coderSandbox: undefined,
      gateSandbox: undefined,
      record: { kind: 'none', reason, gateNetwork: true },
    };
  };
  if (!workspace.isolated) {
    return none(
      '--no-isolation runs in your own checkout, which cannot be contained',
      'Run without --no-isolation.',
    );
  }
  if (availability.kind === 'none') return none(availability.reason, availability.fix);
  let workspaceMounts: ReturnType<typeof workspaceSandboxMounts>;
  try {
    workspaceMounts = workspaceSandboxMounts(workspace.worktreePath);
  } catch (error) {
    // A linked worktree kept by an earlier snodo shares the user's refs and config: it cannot be contained.
    const reason = error instanceof Error ? error.message : String(error);
    return none(reason, 'Abandon the job (`snodo task abandon`) and run the task again.');
  }
  mkdirSync(options.paths.home, { recursive: true });
  mkdirSync(options.paths.coderState, { recursive: true });
  mkdirSync(options.paths.tmp, { recursive: true });
  const templatePaths = commandTemplatePaths(options.coderConfig);
  const build = (network: boolean, executables: readonly string[], extraFiles: readonly string[] = []) =>
    buildJobSandbox({
      executable: availability.executable,
      network,
      repositoryRoot: context.repositoryRoot,
      snodoHome: context.snodoHome,
      worktreesDirectory: context.worktreesDirectory,
      userHomeDirectory: context.homeDirectory,
      workspaceMounts,
      homeDirectory: options.paths.home,
      stateDirectory: options.paths.coderState,
      temporaryDirectory: options.paths.tmp,
      readableFiles: [options.paths.instructions, ...extraFiles],
      pathEnvironment: context.env.PATH,
      executables,
      env: context.env,
    });
  const gateSandbox = build(setting.gateNetwork, []);
  const inPlace = coder?.kind === 'in-place';
  if (inPlace && coder.supportsSandbox !== true) {
    const reason = `${coder.displayName} starts its processes outside snodo's sandbox (it does not declare supportsSandbox)`;
    if (setting.mode === 'required') {
      throw new SandboxUnavailableError({
        reason,
        fix: `Use a coder that runs in the sandbox (\`snodo coders\` shows which), or ask its maintainers to support it.`,
        source: setting.modeSource,
      });
    }
    return {
      coderSandbox: undefined,
      gateSandbox,
      record: { kind: 'none', reason, gateNetwork: setting.gateNetwork },
    };
  }
  return {
    coderSandbox: inPlace
      ? build(true, options.coderExecutable ? [options.coderExecutable] : [], templatePaths)
      : undefined,
    gateSandbox,
    record: { kind: 'bubblewrap', gateNetwork: setting.gateNetwork },
  };
}

/**
 * The absolute paths a config command template names that exist here (a script the template runs with
 * `node`), so a coder declared as `[node, /home/me/tools/coder.mjs, "{prompt}"]` still finds it when HOME or
 * the main checkout is hidden. Elements with a placeholder are the run's, not files.
 */
function commandTemplatePaths(coderConfig: Readonly<Record<string, unknown>> | undefined): string[] {
  const command = coderConfig?.command;
  if (!Array.isArray(command)) return [];
  return command.filter(
    (element): element is string =>
      typeof element === 'string' && isAbsolute(element) && !element.includes('{') && existsSync(element),
  );
}
