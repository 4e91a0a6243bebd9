import type { DiffContext } from '../constraints/diff-context.js';
import type { GateVerdict } from '../gate-verdict.js';

/** The default cap on the diff text inside a judge prompt: about 15k tokens. */
export const DEFAULT_MAX_DIFF_CHARS = 60_000;

const commandOutputChars = 2_000;

/** A fence longer than any backtick run in `text`, so diff content cannot close it early. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Cuts `text` at a line boundary so it fits `maxChars`. */
function capAtLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  return text.slice(0, cut > 0 ? cut : maxChars);
}

const statusWords = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed' } as const;

/** The post-execute part of a judge prompt and whether the diff had to be cut. */
export interface ChangeSections {
  /** Markdown sections: changed files, diff, command gate results. */
  readonly text: string;
  /** `true` when the diff was longer than the cap. */
  readonly diffTruncated: boolean;
}

/**
 * Renders what a post-execute judge must see: the full list of changed files (never truncated), the diff
 * `base..HEAD` capped at `maxDiffChars` with a note when cut, and the command gates' results of the same
 * phase. All of it is fenced as data.
 */
export function renderChangeSections(
  diff: DiffContext,
  commandResults: readonly GateVerdict[],
  maxDiffChars: number = DEFAULT_MAX_DIFF_CHARS,
): ChangeSections {
  const lines: string[] = [];
  lines.push(
    `## Changed files (${diff.files.length}, ${diff.baseCommit.slice(0, 12)}..${diff.headCommit.slice(0, 12)})`,
  );
  if (diff.files.length === 0) lines.push('(no file changed)');
  for (const file of diff.files) {
    const from = file.previousPath ? ` (from ${file.previousPath})` : '';
    lines.push(`- ${statusWords[file.status]}: ${file.path}${from}`);
  }
  const shown = capAtLine(diff.patch, maxDiffChars);
  const diffTruncated = shown.length < diff.patch.length;
  const fence = fenceFor(shown);
  lines.push('', '## Diff');
  if (diffTruncated) {
    lines.push(
      `NOTE: the diff is ${diff.patch.length} characters; only the first ${shown.length} are shown. ` +
        'The list above names every changed file; judge what is not shown with care and say so.',
    );
  }
  lines.push(`${fence}diff`, shown.replace(/\n$/, ''), fence);
  if (commandResults.length > 0) {
    lines.push('', '## Command gate results (tests and checks run on this change)');
    for (const result of commandResults) {
      lines.push(`### ${result.gateId}: ${result.severity}`, result.justification);
      const tail = result.evidence?.outputTail;
      if (typeof tail === 'string' && tail.trim() !== '') {
        const cut = tail.length > commandOutputChars ? tail.slice(tail.length - commandOutputChars) : tail;
        const outputFence = fenceFor(cut);
        lines.push(`${outputFence}text`, cut, outputFence);
      }
    }
  }
  return { text: lines.join('\n'), diffTruncated };
}
