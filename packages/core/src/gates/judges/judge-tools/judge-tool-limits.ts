/**
 * The bounds of a judge's tool loop. Each keeps one answer (and so the next prompt) small enough that a
 * judge that looks costs a few reads, not a repository: a tool answers with the head of what it found and
 * says how to ask for the rest.
 */
export const JUDGE_TOOL_LIMITS = {
  /** Characters of text one tool answer may carry (file lines, listing, diff, log). */
  answerChars: 48_000,
  /** Blobs above this many bytes are not read at all (a line range of them neither): git would load them whole. */
  fileBytes: 2 * 1024 * 1024,
  /** Paths one `list_files` answer names. */
  listEntries: 500,
  /** Commits `git_log` shows at most (and by default, 20). */
  logCommits: 50,
  /** Tool calls one judge may make over its whole loop: a model can ask for many calls in one turn. */
  callsPerJudge: 64,
  /** Characters of a call's input kept in its record. */
  recordedInputChars: 500,
  /** Symbolic links followed inside the tree before a path is refused. */
  symlinkHops: 8,
} as const;

/** `text` cut to `limit` characters, with a line saying it was cut and how to get the rest. */
export function capAnswer(
  text: string,
  howToGetMore: string,
  limit: number = JUDGE_TOOL_LIMITS.answerChars,
): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[cut at ${limit} of ${text.length} characters; ${howToGetMore}]`;
}
