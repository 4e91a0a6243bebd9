import { Command } from '@commander-js/extra-typings';
import { registerAuditCommand } from './commands/audit/audit-command.js';
import { registerCodersCommand } from './commands/coders/coders-command.js';
import type { CommandRuntime } from './commands/command-runtime.js';
import { registerConfigCommand } from './commands/config/config-command.js';
import { registerDoctorCommand } from './commands/doctor/doctor-command.js';
import { registerInitCommand } from './commands/init/init-command.js';
import { registerJobCommand } from './commands/job/job-command.js';
import { registerLogsCommand } from './commands/logs/logs-command.js';
import { registerMetaCommand } from './commands/meta/meta-command.js';
import { registerModelsCommand } from './commands/models/models-command.js';
import { registerProtocolCommand } from './commands/protocol/protocol-command.js';
import { registerQueueCommands } from './commands/queue/queue-commands.js';
import { registerRunCommand } from './commands/run/run-command.js';
import { registerServeCommand } from './commands/serve/serve-command.js';
import { registerTaskCommand } from './commands/task/task-command.js';
import { VERSION } from './version.js';

/**
 * The `snodo` command tree. Building it imports only commander and the command definitions: every action
 * is a dynamic `import()` of its own module, so `snodo --help` and `snodo --version` load neither
 * `@snodo/core`, nor a coder, nor the AI SDK.
 */
export function createProgram(runtime: CommandRuntime): Command {
  const { context } = runtime;
  const program = new Command()
    .name('snodo')
    .description('Run AI coding agents under governance: protocol gates, isolated worktrees, an audit log.')
    .version(VERSION, '-v, --version', 'print the version')
    .option('--verbose', 'print error causes and the coder output as it comes')
    .helpOption('-h, --help', 'print help')
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      outputError: (text, write) => write(context.err.red(text)),
    })
    .hook('preAction', (command) => {
      context.verbose = command.opts().verbose === true;
    })
    .addHelpText(
      'after',
      `
Start here:
  $ snodo init                                    # write .snodo/protocol.yml, then commit it
  $ snodo run "Add a CONTRIBUTING.md" --mock      # the whole pipeline, offline
  $ snodo meta last                               # what happened, on one screen
  $ snodo audit verify                            # the audit log is intact

Environment: SNODO_HOME (default ~/.snodo) holds config.yml, the signing key and worktrees.
NO_COLOR turns colour off. Exit codes: 0 done, 1 halted, 2 bad input, 3 coder or environment, 130 interrupted.`,
    );
  registerInitCommand(program, runtime);
  registerRunCommand(program, runtime);
  registerCodersCommand(program, runtime);
  registerDoctorCommand(program, runtime);
  registerConfigCommand(program, runtime);
  registerMetaCommand(program, runtime);
  registerLogsCommand(program, runtime);
  registerTaskCommand(program, runtime);
  registerJobCommand(program, runtime);
  registerAuditCommand(program, runtime);
  registerProtocolCommand(program, runtime);
  registerModelsCommand(program, runtime);
  registerServeCommand(program, runtime);
  registerQueueCommands(program, runtime);
  return program;
}
