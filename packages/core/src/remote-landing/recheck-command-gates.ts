import { buildCoderEnvironment, type CoderV1Sandbox } from '@snodo/coder-sdk';
import { ConfigStore, type SnodoConfig, worktreesDirectory } from '../config/index.js';
import { classifyValidator } from '../gates/classify-validator.js';
import { loadDiffContext } from '../gates/constraints/load-diff-context.js';
import { BUILT_IN_PREDICATE_NAMES } from '../gates/index.js';
import { runGatePhase } from '../gates/run-gate-phase.js';
import { git } from '../git/index.js';
import { workspaceSandboxMounts } from '../isolation/workspace-sandbox-mounts.js';
import { collectKnownSecrets } from '../pipeline/known-secrets.js';
import {
  constraintsForMode,
  findMode,
  type Protocol,
  parseProtocol,
  validatorsForMode,
} from '../protocol/index.js';
import { buildJobSandbox } from '../sandbox/build-job-sandbox.js';
import { detectSandbox } from '../sandbox/detect-sandbox.js';
import { resolveSandboxSetting } from '../sandbox/sandbox-setting.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { prepareRecheckWorkspace } from './prepare-recheck-workspace.js';
import { createRecheckWorkspace, type RecheckWorkspace } from './recheck-workspace.js';
import type { RecheckGateRecord } from './remote-landing-request.js';

/** What `recheckCommandGates` needs: the lander's clone and home, the job, and the candidate. */
export interface RecheckCommandGatesOptions {
  /** The lander's clone: holds the candidate commit (unreferenced) and the fetched base. */
  readonly clone: string;
  /** The lander's `$SNODO_HOME`: its config (sandbox settings) and where the throw-away workspace goes. */
  readonly snodoHome: string;
  /** The mode the job ran in (`runTask`'s `mode`): its post-execute command gates and constraints run. */
  readonly mode: string;
  readonly jobId: string;
  /** The task text, for constraints that read it. */
  readonly task?: string | undefined;
  /** The lander's environment: PATH and the allow-list the command gates get (never a key). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's real home directory, hidden by the sandbox. */
  readonly homeDirectory: string;
  /** The base branch's short name, for the workspace's marker. */
  readonly baseName?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The merged candidate and the remote base it sits on, as `landOnRemote` hands them to `recheck`. */
  readonly commit: string;
  readonly base: string;
}

/** The re-check's answer: the shape `RemoteLandingRequest.recheck` returns, plus the verdicts. */
export type RecheckCommandGatesResult =
  | { readonly ok: true; readonly gates: readonly RecheckGateRecord[] }
  | { readonly ok: false; readonly reason: string; readonly gates: readonly RecheckGateRecord[] };

/**
 * Re-runs the deterministic gates of the job's mode on the candidate landing commit when the shared base
 * moved (issue 16, item 3): the built-in guards, the mode's constraints (on the diff base..candidate, the
 * change as it will land) and its post-execute command validators. Judges are never run: the re-check makes
 * no model call, so it is cheap, repeatable and the same on every lander.
 *
 * The protocol is read from the base the candidate sits on (`<base>:.snodo/protocol.yml`): the rules the
 * project holds now, written by whoever moved the base, never by the coder (a task's change cannot touch
 * `.snodo/`, and reading the base makes that independent of the merge). A base without a protocol, or whose
 * protocol lost the job's mode, fails the re-check: nothing could vouch for the landing.
 *
 * The gates run in a throw-away workspace at the candidate, made like a task workspace, after the
 * protocol's `copy_into_workspace` and `setup`, inside the job sandbox the protocol and this machine's config
 * choose (as `snodo run` would; `required` without bubblewrap throws `SandboxUnavailableError`). The
 * workspace is removed whatever happens.
 */
export async function recheckCommandGates(
  options: RecheckCommandGatesOptions,
): Promise<RecheckCommandGatesResult> {
  const { config } = new ConfigStore({ home: options.snodoHome }).load();
  const loaded = await protocolAt(options.clone, options.base);
  if ('problem' in loaded) return { ok: false, reason: loaded.problem, gates: [] };
  const { protocol } = loaded;
  if (findMode(protocol, options.mode) === undefined) {
    return {
      ok: false,
      reason: `the protocol at ${options.base.slice(0, 12)} has no mode ${options.mode}, the mode the job ran in`,
      gates: [],
    };
  }
  const setting = resolveSandboxSetting({ execution: protocol.execution, config, env: options.env });
  const availability = await detectSandbox(setting, options.env);
  if (availability.kind === 'none' && setting.mode === 'required') {
    throw new SandboxUnavailableError({
      reason: availability.reason,
      fix: availability.fix,
      source: setting.modeSource,
    });
  }
  const workspace = await createRecheckWorkspace({
    clone: options.clone,
    snodoHome: options.snodoHome,
    jobId: options.jobId,
    commit: options.commit,
    baseName: options.baseName ?? 'base',
  });
  try {
    const sandbox =
      availability.kind === 'bubblewrap'
        ? buildJobSandbox({
            executable: availability.executable,
            network: setting.gateNetwork,
            repositoryRoot: options.clone,
            snodoHome: options.snodoHome,
            worktreesDirectory: worktreesDirectory({
              home: options.snodoHome,
              homedir: options.homeDirectory,
              worktreesDir: config.worktrees_dir,
            }),
            userHomeDirectory: options.homeDirectory,
            workspaceMounts: workspaceSandboxMounts(workspace.worktreePath),
            homeDirectory: workspace.homeDirectory,
            stateDirectory: workspace.stateDirectory,
            temporaryDirectory: workspace.temporaryDirectory,
            readableFiles: [],
            pathEnvironment: options.env.PATH,
            executables: [],
            env: options.env,
          })
        : undefined;
    return await runInWorkspace(options, protocol, config, workspace, sandbox);
  } finally {
    await workspace.remove();
  }
}

async function protocolAt(
  clone: string,
  base: string,
): Promise<{ protocol: Protocol } | { problem: string }> {
  const shown = await git(['show', `${base}:.snodo/protocol.yml`], { cwd: clone, allowFailure: true });
  if (shown.exitCode !== 0) {
    return { problem: `the base ${base.slice(0, 12)} has no .snodo/protocol.yml to re-check the gates with` };
  }
  try {
    const loaded = parseProtocol(shown.stdout, {
      fileName: '.snodo/protocol.yml',
      knownPredicates: [...BUILT_IN_PREDICATE_NAMES],
    });
    return { protocol: loaded.protocol };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { problem: `the .snodo/protocol.yml at ${base.slice(0, 12)} does not load: ${detail}` };
  }
}

async function runInWorkspace(
  options: RecheckCommandGatesOptions,
  protocol: Protocol,
  config: SnodoConfig,
  workspace: RecheckWorkspace,
  sandbox: CoderV1Sandbox | undefined,
): Promise<RecheckCommandGatesResult> {
  // Command gates and setup run the project's own scripts: an allow-listed environment without any key.
  const env = { ...buildCoderEnvironment({ parentEnv: options.env, credentials: {} }), CI: 'true' };
  const setupProblem = await prepareRecheckWorkspace({
    clone: options.clone,
    protocol,
    worktreePath: workspace.worktreePath,
    env,
    sandbox,
    signal: options.signal,
  });
  if (setupProblem !== undefined) return { ok: false, reason: setupProblem, gates: [] };
  const validators = validatorsForMode(protocol, options.mode).filter(
    (validator) =>
      validator.evaluation_phase === 'post_execute' && classifyValidator(validator) === 'command',
  );
  const verdicts = await runGatePhase({
    phase: 'post_execute',
    validators,
    constraints: constraintsForMode(protocol, options.mode),
    context: {
      task: options.task ?? '',
      worktreePath: workspace.worktreePath,
      diff: await loadDiffContext({
        cwd: workspace.worktreePath,
        baseCommit: options.base,
        headCommit: options.commit,
      }),
      env,
      ...(sandbox ? { sandbox } : {}),
      knownSecrets: collectKnownSecrets({ config, env: options.env, snodoHome: options.snodoHome }),
      jobId: options.jobId,
    },
    concurrency: protocol.execution.gate_concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const gates = verdicts.map(
    (verdict): RecheckGateRecord => ({
      gate_id: verdict.gateId,
      kind: verdict.kind === 'constraint' ? 'constraint' : 'command',
      severity: verdict.severity,
      error: verdict.error,
    }),
  );
  // Deterministic gates vote nothing away: a blocker or a gate that could not decide fails the landing.
  const failed = verdicts.find((verdict) => verdict.error || verdict.severity === 'blocker');
  if (failed === undefined) return { ok: true, gates };
  const what = failed.kind === 'constraint' ? 'constraint' : 'command gate';
  return { ok: false, reason: `${what} ${failed.gateId} failed: ${failed.justification}`, gates };
}
