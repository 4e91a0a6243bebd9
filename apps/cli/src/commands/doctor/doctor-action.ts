import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadSigningKey, SIGNING_KEY_FILE } from '@snodo/audit';
import { gitVersion } from '@snodo/coder-sdk';
import {
  checkModels,
  currentBranch,
  detectProviderKeys,
  type Project,
  type ProjectProtocol,
  type Protocol,
  type SnodoConfig,
  signingKeyDirectory,
} from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { checkCoder } from '../../coders/check-coder.js';
import { loadCoderRegistry } from '../../coders/load-coder-registry.js';
import { sandboxStatus } from '../../coders/sandbox-status.js';
import { EXIT_CODES } from '../../exit-codes.js';
import type { Palette } from '../../output/palette.js';
import { formatTable } from '../../output/table.js';
import type { DoctorCheck } from './doctor-check.js';

/** The flags of `snodo doctor`. */
export interface DoctorFlags {
  readonly json?: boolean | undefined;
}

const MINIMUM_NODE = [20, 19] as const;

function checkNode(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
  return ok
    ? { name: 'node', status: 'ok', detail: process.versions.node }
    : {
        name: 'node',
        status: 'fail',
        detail: `${process.versions.node} is older than ${MINIMUM_NODE.join('.')}`,
        fix: 'Install Node.js 20.19 or newer (https://nodejs.org), then run snodo doctor again.',
      };
}

async function checkGit(context: CliContext): Promise<DoctorCheck> {
  // The git snodo itself runs (found once on PATH, as every git call of a run finds it).
  const version = await gitVersion({ cwd: context.cwd, timeoutMs: 10_000 }).catch(() => undefined);
  if (version?.installed) return { name: 'git', status: 'ok', detail: version.text };
  return {
    name: 'git',
    status: 'fail',
    detail: 'git is not on PATH',
    fix: 'Install git (https://git-scm.com/downloads), then run snodo doctor again.',
  };
}

/** The repository, its protocol, and the protocol's parsed content for the coder checks. */
async function checkRepository(
  context: CliContext,
  repositoryRoot: string | undefined,
  projectProtocol: ProjectProtocol,
): Promise<{ checks: DoctorCheck[]; protocol: Protocol | undefined }> {
  if (repositoryRoot === undefined) {
    return {
      checks: [
        {
          name: 'repository',
          status: 'fail',
          detail: `${context.cwd} is not inside a git repository`,
          fix: 'cd into your repository (or `git init` one), then run snodo doctor again.',
        },
      ],
      protocol: undefined,
    };
  }
  const head = await currentBranch(repositoryRoot).catch(() => undefined);
  const branch =
    head === undefined
      ? 'unknown HEAD'
      : head.detached
        ? `detached at ${head.commit.slice(0, 10)}`
        : `branch ${head.name}`;
  const checks: DoctorCheck[] = [
    head?.detached
      ? {
          name: 'repository',
          status: 'warn',
          detail: `${repositoryRoot} (${branch})`,
          fix: 'Switch to a branch (`git switch <branch>`) or pass --base <branch> to snodo run.',
        }
      : { name: 'repository', status: 'ok', detail: `${repositoryRoot} (${branch})` },
  ];
  const path = join(repositoryRoot, '.snodo', 'protocol.yml');
  const shown = relative(context.cwd, path) || path;
  if (!existsSync(path)) {
    checks.push({
      name: 'protocol',
      status: 'fail',
      detail: `no ${shown}`,
      fix: 'snodo init, then commit the file',
    });
    return { checks, protocol: undefined };
  }
  if (projectProtocol.state === 'loaded') {
    const loaded = projectProtocol;
    const warnings = loaded.warnings.length;
    checks.push({
      name: 'protocol',
      status: warnings === 0 ? 'ok' : 'warn',
      detail: `${shown} (${loaded.protocol.protocol_id}, ${loaded.protocol.modes.length} mode(s))${warnings === 0 ? '' : `, ${warnings} warning(s)`}`,
      ...(warnings === 0 ? {} : { fix: 'snodo protocol validate' }),
    });
    return { checks, protocol: loaded.protocol };
  }
  const { error } = projectProtocol;
  checks.push({
    name: 'protocol',
    status: 'fail',
    detail: `${shown} does not load: ${error.message.split('\n')[0] ?? ''}`,
    fix: 'snodo protocol validate',
  });
  return { checks, protocol: undefined };
}

function checkSigningKey(snodoHome: string): DoctorCheck {
  const path = join(signingKeyDirectory(snodoHome), SIGNING_KEY_FILE);
  if (!existsSync(path)) {
    return { name: 'signing key', status: 'info', detail: `none yet; the first run creates ${path} (0600)` };
  }
  try {
    loadSigningKey(path);
    return { name: 'signing key', status: 'ok', detail: path };
  } catch (error) {
    return {
      name: 'signing key',
      status: 'fail',
      detail: error instanceof Error ? error.message : String(error),
      fix: `chmod 600 ${path}`,
    };
  }
}

/**
 * Whether the coder and command gates can run contained here, judged against what the protocol (and
 * config) ask: unavailable is a failure under `required`, a warning under `auto`.
 */
/** `setting` is the project's (protocol and config combined, as a run sees them). */
async function checkSandbox(
  context: CliContext,
  config: SnodoConfig,
  setting: Project['sandbox']['setting'],
): Promise<DoctorCheck> {
  if (setting.mode === 'off') {
    return {
      name: 'sandbox',
      status: 'warn',
      detail: 'off (`execution.sandbox: off`): the coder and command gates run with your own powers',
      fix: 'Set `execution.sandbox: auto` (or `required`) in .snodo/protocol.yml.',
    };
  }
  const status = await sandboxStatus(config, context.env);
  if (status.available) {
    return {
      name: 'sandbox',
      status: 'ok',
      detail: `bubblewrap${status.version ? ` ${status.version}` : ''} (${status.executable}), ${setting.mode}: the coder and command gates run contained`,
    };
  }
  return {
    name: 'sandbox',
    status: setting.mode === 'required' ? 'fail' : 'warn',
    detail: `none (${setting.mode}): ${status.reason}`,
    ...(status.fix ? { fix: status.fix } : {}),
  };
}

/**
 * Whether a plain `snodo run "<task>"` has the models it needs, decided by the run's own check: when it
 * does not, the run is refused (exit 2), so this fails with the run's text and its quick setup.
 */
function checkModelsReady(project: Project, protocolLoaded: boolean, config: SnodoConfig): DoctorCheck {
  const judging = config.llm?.validator?.model ?? config.model;
  let missing: ReturnType<typeof checkModels>;
  try {
    missing = protocolLoaded ? checkModels(project) : undefined;
  } catch (error) {
    // A protocol in which no mode can change code: the protocol check above already says what to do.
    return { name: 'models', status: 'info', detail: error instanceof Error ? error.message : String(error) };
  }
  if (missing !== undefined) {
    const [summary = missing.message, ...ways] = missing.quickSetup.split('\n');
    return {
      name: 'models',
      status: 'fail',
      detail: summary,
      fix: ways
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.endsWith(':'))
        .join('\n    or '),
    };
  }
  return {
    name: 'models',
    status: 'ok',
    detail: judging === undefined ? 'every gate has its own model' : `judging ${judging}`,
  };
}

function formatChecks(checks: readonly DoctorCheck[], palette: Palette): string {
  const marks = {
    ok: palette.green('✔'),
    warn: palette.yellow('!'),
    fail: palette.red('✘'),
    info: palette.dim('•'),
  };
  const rows = checks.map((check) => [marks[check.status], check.name, check.detail]);
  const lines = [formatTable(rows)];
  const problems = checks.filter(
    (check) => check.fix !== undefined && (check.status === 'warn' || check.status === 'fail'),
  );
  if (problems.length > 0) {
    lines.push('', 'To fix:');
    for (const check of problems) lines.push(`  ${check.name}: ${check.fix}`);
  }
  const failed = checks.filter((check) => check.status === 'fail').length;
  const warned = checks.filter((check) => check.status === 'warn').length;
  const warnings = warned === 0 ? '' : ` (${warned} warning(s) above)`;
  lines.push(
    '',
    failed === 0
      ? palette.green(`No problems: snodo can run here${warnings}.`)
      : palette.red(`${failed} problem(s) found${warnings}.`),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `snodo doctor`: node, git, the repository and its protocol, config, the signing key, the coders (the
 * default coder and those the protocol names must be ready; the others are listed), and the provider keys
 * found in the environment (names only). Exit 0 when nothing failed, 1 otherwise.
 */
export async function doctorAction(context: CliContext, flags: DoctorFlags): Promise<number> {
  const checks: DoctorCheck[] = [checkNode(), await checkGit(context)];
  let loaded: Awaited<ReturnType<typeof loadCoderRegistry>> | undefined;
  try {
    loaded = await loadCoderRegistry(context);
  } catch (error) {
    checks.push({
      name: 'config',
      status: 'fail',
      detail: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
      fix: 'Fix the file (`snodo config path` prints where it is), then run snodo doctor again.',
    });
  }
  if (loaded !== undefined) {
    const { registry, config, repositoryRoot, store } = loaded;
    const view = store.load();
    checks.push({
      name: 'config',
      status: view.warnings.length === 0 ? 'ok' : 'warn',
      detail: view.exists
        ? `${view.path}${view.warnings.length === 0 ? '' : ` (${view.warnings[0]?.message ?? ''})`}`
        : `${view.path} (not created yet; defaults apply)`,
      ...(view.warnings.length === 0 ? {} : { fix: 'snodo config show' }),
    });
    const ids = registry.list().map((registration) => registration.id);
    const repository = await checkRepository(context, repositoryRoot, loaded.project.protocol);
    checks.push(...repository.checks);
    checks.push(checkSigningKey(store.home));
    checks.push(await checkSandbox(context, config, loaded.project.sandbox.setting));
    const required = new Set([
      registry.defaultCoderId,
      ...(repository.protocol?.modes ?? []).flatMap((mode) => (mode.coder === undefined ? [] : [mode.coder])),
    ]);
    const statuses = await Promise.all(ids.map((id) => checkCoder(loaded.project, id)));
    for (const status of statuses) {
      const role = status.isDefault
        ? 'default'
        : required.has(status.id)
          ? 'named by the protocol'
          : 'optional';
      const version = status.version === null ? '' : ` ${status.version}`;
      if (status.ready) {
        checks.push({ name: `coder ${status.id}`, status: 'ok', detail: `ready${version} (${role})` });
      } else {
        checks.push({
          name: `coder ${status.id}`,
          status: required.has(status.id) ? 'fail' : 'info',
          detail: `not ready (${role}): ${status.reason ?? 'unknown'}`,
          fix: status.fix ?? status.installHint ?? undefined,
        });
      }
    }
    checks.push(checkModelsReady(loaded.project, repository.protocol !== undefined, config));
    const queue = await (await import('./doctor-queue-check.js')).checkQueue(config);
    if (queue !== undefined) checks.push(queue);
  }
  const keys = detectProviderKeys(context.env);
  checks.push({
    name: 'provider keys',
    status: 'info',
    detail: keys.length === 0 ? 'none in the environment' : `in the environment: ${keys.join(', ')}`,
  });
  const ok = checks.every((check) => check.status !== 'fail');
  if (flags.json === true) context.stdout.write(`${JSON.stringify({ ok, checks }, null, 2)}\n`);
  else context.stdout.write(formatChecks(checks, context.out));
  return ok ? EXIT_CODES.done : EXIT_CODES.halted;
}
