import { type Command, Option } from '@commander-js/extra-typings';
import { parseCapValue } from '../budget-option-parsers.js';
import type { CommandRuntime } from '../command-runtime.js';
import { collectRepeated, parsePositiveInteger } from '../option-parsers.js';

/** The landing strategies `--merge` accepts (SPEC §6). */
export const MERGE_STRATEGIES = ['merge', 'ff-only', 'squash', 'none'] as const;

/** `snodo run "<task>"`: one task through the governed pipeline (SPEC §2). */
export function registerRunCommand(program: Command, runtime: CommandRuntime): void {
  program
    .command('run')
    .description('run a task through the protocol: gates, a coder in its own worktree, gates again, merge')
    .argument('<task...>', 'what to do, in words (quote it, or the words are joined with spaces)')
    .option('--coder <id>', 'the coder to use (`snodo coders` lists them)')
    .option(
      '-m, --model <model>',
      'judging model (provider/model), or a coder model like agy/gemini-2.5-pro; twice for one of each',
      collectRepeated,
    )
    .option('--mock', 'offline: the mock coder and mock/pass judges, unless -m says otherwise')
    .option('--mode <id>', 'the protocol mode to run in (skips classification)')
    .option('--no-isolation', 'work in the current checkout (which must be clean) instead of a worktree')
    .option('--base <branch>', 'the branch to start from and merge into (default: the checked-out branch)')
    .addOption(
      new Option('--merge <strategy>', 'how a passing job lands (default: execution.merge_strategy)').choices(
        MERGE_STRATEGIES,
      ),
    )
    .option('--timeout <seconds>', "the coder's wall-clock limit per attempt", parsePositiveInteger)
    .option('--max-cost <usd>', 'stop and ask once the job spent this many dollars', parseCapValue)
    .option('--max-tokens <n>', 'stop and ask once the job used this many tokens', parseCapValue)
    .option('--strict', 'treat unknown protocol keys as errors')
    .option('--dry-run', 'print the resolved mode, coder, models, gates and base, and create nothing')
    .option('--json', 'print the result as one JSON document on stdout')
    .option('--background', 'start the run detached, print its job id and return (`snodo job wait <job>`)')
    .addHelpText(
      'after',
      `
Examples:
  $ snodo run "Add a CONTRIBUTING.md with setup steps" --mock
  $ snodo run "Add rate limiting to the login route" -m anthropic/claude-sonnet-4-5
  $ snodo run "Fix the flaky date test" --coder claude-code --dry-run
  $ snodo run "Port the parser" -m anthropic/claude-sonnet-4-5 -m opencode-cli/openai/gpt-4o
  $ snodo run "Add a CHANGELOG" --mock --background && snodo job wait last

Exit codes: 0 done, 1 halted by a gate (job kept), 2 bad input, 3 coder or environment failure,
130 interrupted.`,
    )
    .action(async (words, options) => {
      const { runAction } = await import('./run-action.js');
      const values = options.model ?? [];
      // One -m goes to core as it is (core tells a coder's model from a judging one); two are split by role,
      // and the coder's model travels as `coderModel`.
      const models =
        values.length <= 1
          ? undefined
          : await (await import('../option-parsers-model-roles.js')).readModelFlags(runtime.context, values);
      const flags = {
        ...options,
        model: models === undefined ? values[0] : models.judging,
        coderModel: models?.coder,
      };
      runtime.setExitCode(await runAction(runtime.context, words.join(' '), flags));
    });
}
