import type { CliContext } from '../cli-context.js';
import { main } from '../main.js';
import { createPalette, type OutputStream } from '../output/palette.js';
import type { CliFixture } from './cli-fixture.js';

// Test support only: `snodo <args>` run inside the test's own process through the CLI's `main` (commander,
// the action, core, the exit-code map), with the fixture's directory, environment and home in the
// `CliContext`. A spawned `node dist/cli.js` costs 0.3–2 s of start-up on a loaded two-core machine; this
// costs milliseconds once the modules are loaded. Use it for commands that only read or write snodo's own
// files (`task list/show/diff`, `meta`, `logs`, `coders`, `config`, `audit show/verify`); keep the built
// binary (`fixture.snodo`) for what needs a process: `run` (signals, sandboxes, children), start-up, exit on
// signals and closed pipes. NOTE: git commands core runs inherit this process's environment, not the
// fixture's `HOME` and `GIT_CONFIG_GLOBAL`: nothing here may commit.

/** What an in-process command printed and how it ended; the fields of `SnodoResult` tests read. */
export interface InProcessResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout then stderr (a process would interleave them; in-process they are kept apart). */
  readonly all: string;
}

function capture(): { stream: OutputStream; text: () => string } {
  let text = '';
  return {
    stream: {
      isTTY: false,
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    },
    text: () => text,
  };
}

/** Runs `snodo <args>` in `fixture.root` (or `options.cwd`) in this process and returns what it printed. */
export async function snodoInProcess(
  fixture: CliFixture,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<InProcessResult> {
  const out = capture();
  const err = capture();
  const env = { ...fixture.env, ...options.env };
  const context: CliContext = {
    cwd: options.cwd ?? fixture.root,
    env,
    homeDirectory: env.HOME ?? fixture.home,
    stdout: out.stream,
    stderr: err.stream,
    out: createPalette(out.stream, env),
    err: createPalette(err.stream, env),
    verbose: false,
  };
  const exitCode = await main(args, context);
  return { exitCode, stdout: out.text(), stderr: err.text(), all: `${out.text()}${err.text()}` };
}
