import { type RemoteAuditVerification, verifyRemoteRepositoryAudit } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';

/** The flags of `snodo audit verify --remote <remote>`. */
export interface AuditVerifyRemoteFlags {
  readonly remote: string;
  readonly base?: string | undefined;
  readonly json?: boolean | undefined;
}

/** The lines `snodo audit verify --remote` prints for a verification. */
export function renderRemoteAuditVerification(
  verification: RemoteAuditVerification,
  out: CliContext['out'],
): string[] {
  const { landings, chains, keys, failures } = verification;
  const where = `${verification.remote} ${verification.base} at ${verification.baseCommit.slice(0, 12)}`;
  const counts =
    `${chains.length} worker chain(s), ${keys.length} registered key(s), ` +
    `${landings.anchored} of ${landings.checked} landing(s) anchored`;
  const lines = verification.ok
    ? [`${out.green('✔')} ${where}: one verifiable history — ${counts}`]
    : [`${out.red('✘')} ${where}: ${failures.length} problem(s) — ${counts}`];
  for (const chain of chains) {
    const mark = chain.ok ? out.green('✔') : out.red('✘');
    lines.push(
      `  ${mark} refs/snodo/audit/${chain.worker}: ${chain.snapshots} snapshot(s), ${chain.events} event(s), key ${chain.keyId ?? '-'}`,
    );
  }
  for (const failure of failures) {
    const about = [
      failure.worker && `worker ${failure.worker}`,
      failure.commit && `commit ${failure.commit.slice(0, 12)}`,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`  ${out.red(failure.code)}${about ? ` (${about})` : ''}: ${failure.reason}`);
  }
  if (chains.length === 0 && landings.checked === 0) {
    lines.push(
      out.dim(
        `  nothing to check yet: no worker has landed on ${verification.base} through ${verification.remote}`,
      ),
    );
  }
  return lines;
}

/**
 * `snodo audit verify --remote <remote> [--base <branch>]`: exit 0 when every worker chain on the remote
 * verifies against its registered key and every snodo landing on the base is anchored in one; 1 with each
 * problem's stable code (`E_CHAIN_MISSING`, `E_CHAIN_REWRITTEN`, `E_SIGNATURE`, `E_KEY_UNREGISTERED`,
 * `E_KEYS_REWRITTEN`, `E_LANDING_UNANCHORED`) otherwise.
 */
export async function auditVerifyRemoteAction(
  context: CliContext,
  flags: AuditVerifyRemoteFlags,
): Promise<number> {
  const verification = await verifyRemoteRepositoryAudit({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    remote: flags.remote,
    base: flags.base,
  });
  const code = verification.ok ? EXIT_CODES.done : EXIT_CODES.halted;
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(verification, null, 2)}\n`);
    return code;
  }
  context.stdout.write(`${renderRemoteAuditVerification(verification, context.out).join('\n')}\n`);
  return code;
}
