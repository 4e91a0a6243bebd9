import type { Command } from '@commander-js/extra-typings';
import { type CliContext, processContext } from './cli-context.js';
import { CliError } from './errors/cli-error.js';
import { EXIT_CODES, errorCode, exitCodeForError, isCommanderCode } from './exit-codes.js';
import { errorJson, wantsJson } from './output/error-json.js';
import { formatError } from './output/format-error.js';
import { createProgram } from './program.js';

/**
 * Runs the `snodo` command with `argv` (without the node and script paths) and returns the exit code. Never
 * throws: every error is printed on stderr — `error: <message>` and the command that fixes it — and mapped
 * to its exit code in one place (`exit-codes.ts`); under `--json` it is also one JSON document on stdout.
 */
export async function main(argv: readonly string[], context: CliContext = processContext()): Promise<number> {
  let exitCode: number = EXIT_CODES.done;
  const program = createProgram({
    context,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  try {
    refuseHelpForUnknownCommand(program, argv);
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    const code = exitCodeForError(error);
    // Commander has already printed its own message (usage errors) or the help text.
    if (!isCommanderCode(errorCode(error))) {
      context.stderr.write(formatError(error, { palette: context.err, verbose: context.verbose }));
    }
    // Under `--json` a script reads stdout: the error is one JSON document there too (help is no error).
    if (code !== EXIT_CODES.done && wantsJson(argv)) {
      context.stdout.write(`${JSON.stringify(errorJson(error, code), null, 2)}\n`);
    }
    return code;
  }
}

/**
 * `snodo help <command>` for a command that does not exist: commander prints the general help and exits 0,
 * which hides the typo; this is a usage error naming the commands.
 */
function refuseHelpForUnknownCommand(program: Command, argv: readonly string[]): void {
  const [first, name] = argv;
  if (first !== 'help' || name === undefined || name.startsWith('-')) return;
  const names = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  if (names.includes(name)) return;
  throw new CliError('CLI_USAGE', {
    message: `There is no command \`${name}\`.`,
    fix: `snodo help   (the commands: ${names.filter((known) => known !== 'help').join(', ')})`,
  });
}
