import picomatch from 'picomatch';
import { z } from 'zod';
import { git } from '../../../git/git.js';
import { confineJudgePath } from './confine-judge-path.js';
import type { JudgeToolDefinition } from './judge-tool-definition.js';
import { capAnswer, JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';
import { resolveTreePath } from './read-tree-entry.js';

const input = z
  .object({
    directory: z.string().optional().describe('Directory relative to the repository root; default the root'),
    glob: z
      .string()
      .optional()
      .describe('Only paths matching this glob, relative to the directory (e.g. **/*.ts); default all'),
  })
  .strict();

/**
 * `list_files`: the files under a directory of the judged commit, recursively, optionally filtered by a
 * glob (picomatch, `**` semantics, dot files included), at most 500 paths, repository-relative.
 */
export const listFilesTool: JudgeToolDefinition<z.infer<typeof input>> = {
  name: 'list_files',
  description:
    'List the files under a directory of the repository at the commit being judged (recursively), ' +
    'optionally only those matching a glob relative to that directory. At most 500 paths are returned.',
  input,
  async run(request, source) {
    const confined = confineJudgePath(request.directory, 'directory');
    if (!confined.ok) return confined;
    const found = await resolveTreePath(source, confined.path);
    if (!found.ok) return found;
    const { entry } = found;
    if (entry.type !== 'tree') return { ok: false, error: `${entry.path} is a file; use read_file` };
    const listed = await git(['ls-tree', '-r', '-z', '--name-only', entry.oid], {
      cwd: source.directory,
      readOnly: true,
    });
    const matches = request.glob === undefined ? () => true : picomatch(request.glob, { dot: true });
    const prefix = entry.path === '' ? '' : `${entry.path}/`;
    const paths = listed.stdout
      .split('\0')
      .filter((path) => path !== '' && matches(path))
      .map((path) => `${prefix}${path}`);
    const where = entry.path === '' ? 'the repository root' : entry.path;
    if (paths.length === 0) {
      return {
        ok: true,
        text: `No files under ${where}${request.glob === undefined ? '' : ` match ${request.glob}`}.`,
      };
    }
    const limit = JUDGE_TOOL_LIMITS.listEntries;
    const shown = paths.slice(0, limit);
    const more =
      paths.length > limit ? [`[${paths.length - limit} more; narrow the directory or the glob]`] : [];
    return {
      ok: true,
      text: capAnswer(
        [`${paths.length} file(s) under ${where}:`, ...shown, ...more].join('\n'),
        'narrow the directory or the glob',
      ),
    };
  },
};
