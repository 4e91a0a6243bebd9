import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { auditLogPath, findMainCheckout, verifyRepositoryAudit } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';

/** The flags of `snodo audit verify`. */
export interface AuditVerifyFlags {
  readonly json?: boolean | undefined;
}

/** Refuses politely when the repository has no audit log yet. */
export async function requireAuditLog(cwd: string): Promise<string> {
  const { root } = await findMainCheckout(cwd);
  const path = auditLogPath(root);
  if (!existsSync(path)) {
    throw new CliError('AUDIT_LOG_NOT_FOUND', {
      message: `There is no audit log at ${path} yet: snodo writes it with the first run in this repository.`,
      fix: 'snodo run "<task>" --mock',
    });
  }
  return path;
}

/**
 * `snodo audit verify`: exit 0 when the chain and every anchor verify, 1 with the first bad line (or the
 * anchor that contradicts the log: `E_LOG_REPLACED`, `E_LOG_MISSING`) and its stable code otherwise. Says
 * how many checkpoints were checked, from where, and what could not be. A repository with neither a log nor
 * an anchor simply has not run snodo yet (exit 2, with the command that starts one).
 */
export async function auditVerifyAction(context: CliContext, flags: AuditVerifyFlags): Promise<number> {
  const verification = await verifyRepositoryAudit({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
  });
  const { result, checkpoints } = verification;
  if (!verification.logExists && checkpoints.own === 0) await requireAuditLog(context.cwd);
  const code = result.ok ? EXIT_CODES.done : EXIT_CODES.halted;
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(verification, null, 2)}\n`);
    return code;
  }
  const { out } = context;
  const shown = relative(context.cwd, verification.logPath) || verification.logPath;
  // A failure that concerns the log as a whole has no line to point at.
  const lines: string[] = [];
  if (result.ok) {
    lines.push(
      `${out.green('✔')} ${shown}: intact — ${result.events} events, head seq ${result.headSeq ?? '-'}, ${result.checkpointsVerified} signed checkpoint(s) verified`,
    );
  } else {
    const failure = result.failure;
    const where =
      failure?.line === undefined
        ? ''
        : `line ${failure.line}${failure.seq === undefined ? '' : ` (seq ${failure.seq})`}: `;
    lines.push(
      `${out.red('✘')} ${shown}: ${where}${failure?.code ?? 'E_UNKNOWN'} ${failure?.reason ?? 'verification failed'}`,
    );
    if (verification.logExists) {
      lines.push(`  ${result.events} event(s) before it verified. Inspect with: snodo audit show`);
    }
  }
  if (result.failure?.code === 'E_LOG_MISSING' || result.failure?.code === 'E_LOG_REPLACED') {
    lines.push(
      '  If the log cannot be restored, start a new one on the record: snodo audit reset --reason "<why>"',
    );
  }
  lines.push(
    `  checkpoints found: ${checkpoints.store} in $SNODO_HOME, ${checkpoints.ref} in refs/snodo/audit, ${checkpoints.trailers} in commit trailers, ${checkpoints.remote} on the audit remote`,
  );
  if (verification.lineage.length > 0) {
    lines.push(
      `  earlier logs (signed resets): ${verification.lineage.join(', ')}; ${checkpoints.lineage} of their checkpoint(s) fit what the reset recorded`,
    );
  }
  for (const warning of result.warnings)
    lines.push(out.yellow(`  warning: line ${warning.line}: ${warning.reason}`));
  for (const item of verification.notChecked) lines.push(out.dim(`  not checked: ${item}`));
  context.stdout.write(`${lines.join('\n')}\n`);
  return code;
}
