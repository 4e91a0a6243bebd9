import { type CliContext, processContext } from './cli-context.js';
import { EXIT_CODES, errorCode, exitCodeForError, isCommanderCode } from './exit-codes.js';
import { formatError } from './output/format-error.js';
import { createProgram } from './program.js';

/**
 * Runs the `snodo` command with `argv` (without the node and script paths) and returns the exit code. Never
 * throws: every error is printed on stderr — `error: <message>` and the command that fixes it — and mapped
 * to its exit code in one place (`exit-codes.ts`).
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
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    // Commander has already printed its own message (usage errors) or the help text.
    if (!isCommanderCode(errorCode(error))) {
      context.stderr.write(formatError(error, { palette: context.err, verbose: context.verbose }));
    }
    return exitCodeForError(error);
  }
}
