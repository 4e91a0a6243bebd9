import { z } from 'zod';
import { git } from '../../../git/git.js';
import { confineJudgePath } from './confine-judge-path.js';
import type { JudgeToolDefinition } from './judge-tool-definition.js';
import { capAnswer, JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';
import { resolveTreePath } from './read-tree-entry.js';

const input = z
  .object({
    path: z.string().describe('File path relative to the repository root, e.g. src/index.ts'),
    start_line: z.number().int().min(1).optional().describe('First line to show (1-based); default 1'),
    end_line: z.number().int().min(1).optional().describe('Last line to show (inclusive); default the end'),
  })
  .strict();

/**
 * `read_file`: a file of the judged commit, whole or a line range, each line numbered so a finding can name
 * it. Binary files and files above 2 MiB are described, not shown; the answer is capped (48 000 characters).
 */
export const readFileTool: JudgeToolDefinition<z.infer<typeof input>> = {
  name: 'read_file',
  description:
    'Read a file of the repository at the commit being judged, optionally only lines start_line..end_line. ' +
    'Lines are numbered. Paths are relative to the repository root; nothing outside it can be read.',
  input,
  async run(request, source) {
    const confined = confineJudgePath(request.path);
    if (!confined.ok) return confined;
    if (confined.path === '')
      return { ok: false, error: 'path is the repository root; use list_files to see it' };
    const found = await resolveTreePath(source, confined.path);
    if (!found.ok) return found;
    const { entry } = found;
    if (entry.type === 'tree') return { ok: false, error: `${entry.path} is a directory; use list_files` };
    if (entry.size > JUDGE_TOOL_LIMITS.fileBytes) {
      return {
        ok: false,
        error: `${entry.path} has ${entry.size} bytes, more than the ${JUDGE_TOOL_LIMITS.fileBytes} a judge may read`,
      };
    }
    const content = (await git(['cat-file', 'blob', entry.oid], { cwd: source.directory, readOnly: true }))
      .stdout;
    if (content.includes('\0'))
      return { ok: true, text: `${entry.path} is a binary file of ${entry.size} bytes; not shown.` };
    const lines = content.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length === 0) return { ok: true, text: `${entry.path} is empty.` };
    const start = request.start_line ?? 1;
    const end = Math.min(request.end_line ?? lines.length, lines.length);
    if (start > Math.max(lines.length, 1) || end < start) {
      return {
        ok: false,
        error: `${entry.path} has ${lines.length} lines; lines ${start}-${request.end_line ?? end} are not in it`,
      };
    }
    const shown = lines.slice(start - 1, end).map((line, index) => `${start + index}: ${line}`);
    const header = `${entry.path} (lines ${start}-${end} of ${lines.length})`;
    return { ok: true, text: capAnswer([header, ...shown].join('\n'), 'ask for a later start_line') };
  },
};
