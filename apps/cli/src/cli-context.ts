import { homedir } from 'node:os';
import { createPalette, type OutputStream, type Palette } from './output/palette.js';

/**
 * What every command's action works with: where it runs, the environment, and the two output streams with
 * their palettes. Built once in `main`, so an action never reaches for `process` itself and the whole CLI
 * can be driven from a test or an embedding program.
 */
export interface CliContext {
  /** The directory snodo was started in; the repository is found from here. */
  readonly cwd: string;
  /** The environment (keys, `SNODO_HOME`, `NO_COLOR`, `PATH`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory (the default `$SNODO_HOME` is `~/.snodo`). */
  readonly homeDirectory: string;
  /** Results: the summary, tables, `--json` documents. */
  readonly stdout: OutputStream;
  /** Progress, warnings and errors. */
  readonly stderr: OutputStream;
  /** Colours for stdout. */
  readonly out: Palette;
  /** Colours for stderr. */
  readonly err: Palette;
  /** `--verbose`: error causes, coder output lines. Set by the program before an action runs. */
  verbose: boolean;
}

/** The context of the running process. */
export function processContext(): CliContext {
  return {
    cwd: process.cwd(),
    env: process.env,
    homeDirectory: process.env.HOME || homedir(),
    stdout: process.stdout,
    stderr: process.stderr,
    out: createPalette(process.stdout, process.env),
    err: createPalette(process.stderr, process.env),
    verbose: false,
  };
}
