import type { Command } from '@commander-js/extra-typings';
import { CliError } from '../../errors/cli-error.js';
import type { CommandRuntime } from '../command-runtime.js';

/** `snodo audit …`: the hash-chained audit log of this repository. */
export function registerAuditCommand(program: Command, runtime: CommandRuntime): void {
  const audit = program
    .command('audit')
    .description("verify, read, export and reset this repository's audit log");
  const context = runtime.context;
  audit
    .command('verify')
    .description('recompute the hash chain and check it against every signed checkpoint (exit 1 if broken)')
    .option('--json', 'print the verification as JSON')
    .option(
      '--remote <remote>',
      "verify a shared remote instead: every worker's chain and key, and every landing's anchor",
    )
    .option(
      '--base <branch>',
      "with --remote: the branch whose landings to check (default: the remote's HEAD)",
    )
    .action(async (options) => {
      if (options.remote !== undefined) {
        const { auditVerifyRemoteAction } = await import('./audit-verify-remote-action.js');
        runtime.setExitCode(await auditVerifyRemoteAction(context, { ...options, remote: options.remote }));
        return;
      }
      if (options.base !== undefined) {
        throw new CliError('CLI_USAGE', {
          message: '--base names the branch of a shared remote to check, so it needs --remote.',
          fix: `snodo audit verify --remote origin --base ${options.base}`,
        });
      }
      const { auditVerifyAction } = await import('./audit-verify-action.js');
      runtime.setExitCode(await auditVerifyAction(context, options));
    });
  audit
    .command('reset')
    .description(
      'start a new audit log on purpose: the old one is kept, the new genesis names its head (audited)',
    )
    .requiredOption('--reason <text>', 'why the log starts again, recorded in the new genesis event')
    .option('--json', 'print what was done as JSON')
    .action(async (options) => {
      const { auditResetAction } = await import('./audit-reset-action.js');
      runtime.setExitCode(await auditResetAction(context, options));
    });
  audit
    .command('show')
    .description('print the events of the log, optionally of one job')
    .option('--job <id>', 'only the events of this job')
    .option('--json', 'print the events as a JSON array')
    .action(async (options) => {
      const { auditShowAction } = await import('./audit-show-action.js');
      runtime.setExitCode(await auditShowAction(context, options));
    });
  audit
    .command('export')
    .description("a job's attestation: an in-toto statement in a signed DSSE envelope, as JSON on stdout")
    .requiredOption('--job <id>', 'the job to attest')
    .action(async (options) => {
      const { auditExportAction } = await import('./audit-show-action.js');
      runtime.setExitCode(await auditExportAction(context, options));
    });
}
