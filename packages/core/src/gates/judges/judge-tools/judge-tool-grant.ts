import type { JudgeToolName } from './judge-tool-definition.js';

/**
 * What each name a validator's `tools:` grant may hold (the protocol's read-only list, kept from the
 * Python original) gives the judge. `read_file_lines` is `read_file` with a line range; `git_show` (a
 * commit's message and change) is `git_log` plus `read_diff` between a commit and its parent.
 */
const GRANTED: Readonly<Record<string, readonly JudgeToolName[]>> = {
  read_file: ['read_file'],
  read_file_lines: ['read_file'],
  list_files: ['list_files'],
  read_diff_between_refs: ['read_diff'],
  git_log: ['git_log'],
  git_show: ['git_log', 'read_diff'],
};

/** The grant names that give a judge tools. */
export const GRANTABLE_JUDGE_TOOLS: readonly string[] = Object.keys(GRANTED);

/**
 * The tools a grant gives, in a fixed order, and the names it holds that give nothing. A refused name is
 * never mapped to something close: the caller fails closed on it (an unknown name may be a write tool the
 * protocol's schema would have refused).
 */
export function judgeToolsForGrant(grant: readonly string[]): {
  readonly tools: readonly JudgeToolName[];
  readonly refused: readonly string[];
} {
  const tools = new Set<JudgeToolName>();
  const refused: string[] = [];
  for (const name of grant) {
    const given = Object.hasOwn(GRANTED, name) ? GRANTED[name] : undefined;
    if (given === undefined) refused.push(name);
    else for (const tool of given) tools.add(tool);
  }
  const order: readonly JudgeToolName[] = ['read_file', 'list_files', 'read_diff', 'git_log'];
  return { tools: order.filter((tool) => tools.has(tool)), refused };
}
