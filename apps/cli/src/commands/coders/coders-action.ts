import { checkModels, type Project } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { type CoderStatus, checkCoder } from '../../coders/check-coder.js';
import { loadCoderRegistry } from '../../coders/load-coder-registry.js';
import { describeSandboxStatus, type SandboxStatus, sandboxStatus } from '../../coders/sandbox-status.js';
import { EXIT_CODES } from '../../exit-codes.js';
import {
  type CredentialSource,
  credentialSourceNotes,
  credentialSources,
  credentialSourceText,
} from '../../output/credential-source.js';
import type { Palette } from '../../output/palette.js';
import { formatTable } from '../../output/table.js';

/** The flags of `snodo coders`. */
export interface CodersFlags {
  readonly json?: boolean | undefined;
}

/** Every registered coder's status, checked concurrently (each may probe a CLI's version), and the sandbox's. */
export async function listCoderStatuses(
  context: CliContext,
): Promise<{ coders: CoderStatus[]; sandbox: SandboxStatus }> {
  const { project, registry, config } = await loadCoderRegistry(context);
  const [coders, sandbox] = await Promise.all([
    Promise.all(registry.list().map((registration) => checkCoder(project, registration.id))),
    sandboxStatus(config, context.env),
  ]);
  return { coders: coders.map((status) => withModelReadiness(project, status)), sandbox };
}

/**
 * A coder that can run is still not ready when `snodo run --coder <id>` would be refused for a model
 * nothing configures (core's `checkModels`, the run's own check): then its reason and fix are the run's.
 */
function withModelReadiness(project: Project, status: CoderStatus): CoderStatus {
  if (!status.ready) return status;
  let missing: ReturnType<typeof checkModels>;
  try {
    missing = checkModels(project, { coder: status.id });
  } catch {
    // Outside a repository or without a loadable protocol there is no run to check; `doctor` says why.
    return status;
  }
  if (missing === undefined) return status;
  const [summary = missing.message, ...ways] = missing.quickSetup.split('\n');
  return { ...status, ready: false, reason: summary, fix: ways.join('\n') };
}

function sandboxText(status: CoderStatus, sandbox: SandboxStatus, palette: Palette): string {
  if (status.sandbox === 'not-needed') return palette.dim('-');
  if (status.sandbox === 'unknown') return '?';
  if (status.sandbox === 'unsupported') return palette.red('no');
  return sandbox.available ? palette.green('yes') : palette.yellow('no sandbox here');
}

/**
 * The coders as a table (with whether each runs in the sandbox), a line about the sandbox on this machine,
 * then one line per coder that is not ready, with its fix.
 */
export function formatCoderStatuses(
  statuses: readonly CoderStatus[],
  sandbox: SandboxStatus,
  palette: Palette,
  sources: ReadonlyMap<string, CredentialSource> = new Map(),
): string {
  const rows = [
    ['coder', 'kind', 'installed', 'version', 'credentials', 'sandboxed', 'ready'],
    ...statuses.map((status) => [
      `${status.id}${status.isDefault ? palette.dim(' (default)') : ''}`,
      status.kind,
      status.installed ? 'yes' : palette.red('no'),
      status.version ?? '-',
      credentialSourceText(status, sources.get(status.id) ?? { kind: 'none' }, palette),
      sandboxText(status, sandbox, palette),
      status.ready ? palette.green('yes') : palette.red('no'),
    ]),
  ];
  const lines = [
    formatTable(rows, { header: palette.dim }),
    ...credentialSourceNotes(sources.values(), palette),
    '',
    describeSandboxStatus(sandbox),
  ];
  const notReady = statuses.filter((status) => !status.ready);
  if (notReady.length > 0) lines.push('');
  const shown = new Set<string>();
  for (const status of notReady) {
    // The same missing model makes every coder not ready: its text is printed once, naming them all.
    const sharing = notReady.filter((other) => other.reason === status.reason && other.fix === status.fix);
    if (sharing.length > 1) {
      if (shown.has(status.reason ?? '')) continue;
      shown.add(status.reason ?? '');
      lines.push(
        `${palette.bold(sharing.map((other) => other.id).join(', '))}: ${status.reason ?? 'not ready'}`,
      );
      if (status.fix !== null) lines.push(status.fix);
      continue;
    }
    lines.push(`${palette.bold(status.id)}: ${status.reason ?? 'not ready'}`);
    if (status.fix !== null && status.fix !== status.reason) lines.push(`  fix: ${status.fix}`);
    else if (!status.installed && status.installHint !== null) lines.push(`  install: ${status.installHint}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `snodo coders`: always exit 0; readiness is information here (`snodo doctor` is the check). */
export async function codersAction(context: CliContext, flags: CodersFlags): Promise<number> {
  const { coders, sandbox } = await listCoderStatuses(context);
  const sources = await credentialSources(await loadCoderRegistry(context), context.env, coders);
  if (flags.json === true) {
    const withSources = coders.map((status) => ({ ...status, credentialSource: sources.get(status.id) }));
    context.stdout.write(`${JSON.stringify({ coders: withSources, sandbox }, null, 2)}\n`);
  } else context.stdout.write(formatCoderStatuses(coders, sandbox, context.out, sources));
  return EXIT_CODES.done;
}
