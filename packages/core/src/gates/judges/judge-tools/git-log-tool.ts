import { z } from 'zod';
import { git } from '../../../git/git.js';
import { confineJudgePath } from './confine-judge-path.js';
import type { JudgeToolDefinition } from './judge-tool-definition.js';
import { capAnswer, JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';

const input = z
  .object({
    max_count: z
      .number()
      .int()
      .min(1)
      .max(JUDGE_TOOL_LIMITS.logCommits)
      .optional()
      .describe(`How many commits, newest first (1-${JUDGE_TOOL_LIMITS.logCommits}); default 20`),
    path: z.string().optional().describe('Only commits touching this path, relative to the repository root'),
  })
  .strict();

/** `git_log`: the newest commits of head's history (id, date, author, subject, parents), at most 50, optionally of one path. */
export const gitLogTool: JudgeToolDefinition<z.infer<typeof input>> = {
  name: 'git_log',
  description:
    'List the newest commits in the history of the commit being judged: id, date, author, subject and ' +
    "parent ids (read_diff from a parent to its commit shows that commit's change), " +
    'optionally only those touching one path.',
  input,
  async run(request, source) {
    const path = confineJudgePath(request.path);
    if (!path.ok) return path;
    const count = request.max_count ?? 20;
    const log = await git(
      [
        'log',
        '--no-color',
        '--date=short',
        // The parents let read_diff show one commit's own change (from its parent to it).
        '--format=%H %ad %an: %s (parents: %P)',
        `--max-count=${count}`,
        source.headCommit,
        ...(path.path === '' ? [] : ['--', path.path]),
      ],
      { cwd: source.directory, readOnly: true },
    );
    const text = log.stdout.trimEnd();
    return { ok: true, text: text === '' ? 'No commits.' : capAnswer(text, 'ask for fewer commits') };
  },
};
