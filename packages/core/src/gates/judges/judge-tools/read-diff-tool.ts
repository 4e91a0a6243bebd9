import { z } from 'zod';
import { git } from '../../../git/git.js';
import { isAncestor, resolveCommit } from '../../../git/rev-parse.js';
import { confineJudgePath } from './confine-judge-path.js';
import type { JudgeToolDefinition } from './judge-tool-definition.js';
import { capAnswer } from './judge-tool-limits.js';
import type { JudgeToolSource } from './judge-tool-source.js';

const input = z
  .object({
    from: z.string().optional().describe('"base" (default), "head", or a commit id in the history of head'),
    to: z.string().optional().describe('"head" (default), "base", or a commit id in the history of head'),
    path: z.string().optional().describe('Only this file or directory, relative to the repository root'),
  })
  .strict();

/**
 * A revision the model named, as a commit id: `base` and `head` are the job's own commits; anything else
 * must be a hexadecimal commit id already in the history of head. Names (branches, `HEAD~1`, `--output=…`)
 * are refused, so no input reaches git as an option or reads another line of history.
 */
async function jobCommit(
  name: string | undefined,
  fallback: 'base' | 'head',
  source: JudgeToolSource,
): Promise<{ ok: true; commit: string } | { ok: false; error: string }> {
  const wanted = (name ?? fallback).trim();
  if (wanted.toLowerCase() === 'base') return { ok: true, commit: source.baseCommit };
  if (wanted.toLowerCase() === 'head') return { ok: true, commit: source.headCommit };
  if (!/^[0-9a-f]{4,64}$/i.test(wanted)) {
    return { ok: false, error: `${JSON.stringify(wanted)} is not "base", "head" or a commit id` };
  }
  const commit = await resolveCommit(source.directory, wanted);
  if (commit === undefined) return { ok: false, error: `no commit ${wanted} in this repository` };
  if (!(await isAncestor(source.directory, commit, source.headCommit))) {
    return { ok: false, error: `commit ${wanted} is not in the history of head` };
  }
  return { ok: true, commit };
}

/**
 * `read_diff`: the unified diff between two commits of the job, by default `base..head` (the change being
 * judged), optionally of one path; capped at 48 000 characters. External diff drivers and textconv are off.
 */
export const readDiffTool: JudgeToolDefinition<z.infer<typeof input>> = {
  name: 'read_diff',
  description:
    'Read the unified diff between two commits: from "base" (the commit the task started from, default) ' +
    'to "head" (the commit being judged, default), or a commit id in the history of head; optionally ' +
    'only one path.',
  input,
  async run(request, source) {
    const from = await jobCommit(request.from, 'base', source);
    if (!from.ok) return from;
    const to = await jobCommit(request.to, 'head', source);
    if (!to.ok) return to;
    const path = confineJudgePath(request.path);
    if (!path.ok) return path;
    const limit = path.path === '' ? [] : ['--', path.path];
    const diff = await git(
      [
        'diff',
        '--no-ext-diff',
        '--no-textconv',
        '--no-color',
        '--find-renames',
        from.commit,
        to.commit,
        ...limit,
      ],
      { cwd: source.directory, readOnly: true },
    );
    if (diff.stdout === '') return { ok: true, text: 'No differences.' };
    return { ok: true, text: capAnswer(diff.stdout, 'ask for one path at a time') };
  },
};
