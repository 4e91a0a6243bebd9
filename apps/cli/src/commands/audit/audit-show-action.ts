import type { AuditEvent } from '@snodo/audit';
import { exportJobAttestation, readRepositoryAudit } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { summariseAuditEvent } from '../../output/audit-event-summary.js';
import type { Palette } from '../../output/palette.js';
import { requireAuditLog } from './audit-verify-action.js';

/** The flags of `snodo audit show`. */
export interface AuditShowFlags {
  readonly job?: string | undefined;
  readonly json?: boolean | undefined;
}

function formatEvent(event: AuditEvent, palette: Palette): string {
  const job = event.job === undefined ? '' : ` ${event.job}`;
  return `${palette.dim(String(event.seq).padStart(5))} ${palette.dim(event.ts)} ${palette.bold(event.type)}${job} ${palette.dim(`by ${event.actor}`)} ${summariseAuditEvent(event.type, event.data)}`.trimEnd();
}

/** `snodo audit show [--job <id>]`: the events, one line each (verified as they are read). */
export async function auditShowAction(context: CliContext, flags: AuditShowFlags): Promise<number> {
  await requireAuditLog(context.cwd);
  const jobId = flags.job === undefined ? undefined : (await resolveJobId(context.cwd, flags.job)).jobId;
  const events = await readRepositoryAudit({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    ...(jobId === undefined ? {} : { jobId }),
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
  } else {
    for (const event of events) context.stdout.write(`${formatEvent(event, context.out)}\n`);
  }
  return EXIT_CODES.done;
}

/** `snodo audit export --job <id>`: the signed DSSE envelope, as JSON, alone on stdout. */
export async function auditExportAction(
  context: CliContext,
  flags: { readonly job: string },
): Promise<number> {
  await requireAuditLog(context.cwd);
  const { jobId } = await resolveJobId(context.cwd, flags.job);
  const envelope = await exportJobAttestation({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    jobId,
  });
  context.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
  return EXIT_CODES.done;
}
