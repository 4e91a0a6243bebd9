import { relative } from 'node:path';
import { AuditTrail, openTaskScope, SNODO_VERSION } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';

/** The flags of `snodo audit reset`. */
export interface AuditResetFlags {
  readonly reason: string;
  readonly json?: boolean | undefined;
}

/**
 * `snodo audit reset --reason <text>`: the one audited way to start a new log over existing anchors (a lost
 * or replaced log). Prints where the old log was kept, which head the new genesis records and from where,
 * and the new log id.
 */
export async function auditResetAction(context: CliContext, flags: AuditResetFlags): Promise<number> {
  if (flags.reason.trim() === '') {
    throw new CliError('CLI_USAGE', {
      message: '--reason is empty: the reason is recorded in the new log, so say why it starts again.',
      fix: 'snodo audit reset --reason "<why>"',
    });
  }
  const scope = await openTaskScope({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
  });
  const result = await AuditTrail.reset({
    repositoryRoot: scope.repositoryRoot,
    gitCommonDirectory: scope.gitCommonDirectory,
    snodoHome: scope.snodoHome,
    actor: scope.actor,
    reason: flags.reason,
    createdBy: `snodo@${SNODO_VERSION}`,
    remote: scope.config.audit?.remote,
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  const { previous } = result;
  const from =
    previous.source === 'log'
      ? 'its verified head'
      : previous.source === 'checkpoint'
        ? 'its newest signed checkpoint (the log was missing or did not verify)'
        : 'the part of it that verified (it had no signed checkpoint)';
  const lines = [
    `${out.green('✔')} started audit log ${result.logId}`,
    `  it replaces log ${previous.log_id} at ${previous.size} event(s), taken from ${from}`,
    result.archivedAs === undefined
      ? '  the old log file was already gone'
      : `  the old log is kept as ${relative(context.cwd, result.archivedAs) || result.archivedAs}`,
    ...(result.superseded.length === 0
      ? []
      : [`  also superseded: ${result.superseded.map((record) => record.log_id).join(', ')}`]),
    `  reason recorded: ${flags.reason}`,
    '  check it: snodo audit verify',
    ...result.warnings.map((warning) => out.yellow(`  warning: ${warning}`)),
  ];
  context.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_CODES.done;
}
