/** The longest task text kept in a commit subject, so `git log --oneline` stays readable. */
const maximumSubjectTaskLength = 72;

/**
 * Lines CLIs add to credit themselves in commit messages (`Co-Authored-By: <agent>`, a robot emoji and
 * "Generated with …", `Generated-by:`). snodo writes its own message, so they never reach the commit
 * unless the adapter keeps them on purpose (`keepAttribution`).
 */
export const ATTRIBUTION_LINE_PATTERNS: readonly RegExp[] = [
  /^co-authored-by:/i,
  /^generated-by:/i,
  /^assisted-by:/i,
  /^generated with\b/i,
  /^\u{1F916}/u,
];

const unsafeCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function singleLine(text: string): string {
  return text.replace(unsafeCharacters, '').replace(/\s+/g, ' ').trim();
}

/**
 * The attribution lines found in the commit messages a CLI wrote itself, in order, without duplicates.
 * `messages` is the raw `git log --format=%B` text of those commits.
 */
export function extractAttribution(messages: string): string[] {
  const found: string[] = [];
  for (const rawLine of messages.split('\n')) {
    const line = singleLine(rawLine);
    if (
      line !== '' &&
      ATTRIBUTION_LINE_PATTERNS.some((pattern) => pattern.test(line)) &&
      !found.includes(line)
    ) {
      found.push(line);
    }
  }
  return found;
}

/** The subject's task part: the first non-empty line of the task, cleaned and shortened. */
export function commitSubjectTask(task: string): string {
  const firstLine =
    task
      .split(/\r?\n/)
      .map(singleLine)
      .find((line) => line !== '') ?? '(no task text)';
  return firstLine.length <= maximumSubjectTaskLength
    ? firstLine
    : `${firstLine.slice(0, maximumSubjectTaskLength - 1).trimEnd()}…`;
}

/**
 * The message of snodo's one commit per attempt:
 *
 * ```
 * snodo(j_abc): add rate limiting to the login route
 *
 * Snodo-Job: j_abc
 * Snodo-Coder: claude-code@2.1.3
 * ```
 *
 * Kept attribution goes last: "Generated with …" lines in their own paragraph before the trailers,
 * `Key: value` lines appended to the trailer block, so `git interpret-trailers` still reads it.
 */
export function buildCommitMessage(options: {
  jobId: string;
  task: string;
  coderId: string;
  cliVersion: string | undefined;
  attribution?: readonly string[];
}): string {
  const jobId = singleLine(options.jobId);
  const version =
    options.cliVersion === undefined || singleLine(options.cliVersion) === ''
      ? 'unknown'
      : singleLine(options.cliVersion);
  const attribution = options.attribution ?? [];
  const trailerLike = attribution.filter((line) => /^[A-Za-z][A-Za-z0-9-]*:\s/.test(line));
  const prose = attribution.filter((line) => !trailerLike.includes(line));
  const paragraphs = [`snodo(${jobId}): ${commitSubjectTask(options.task)}`];
  if (prose.length > 0) paragraphs.push(prose.join('\n'));
  paragraphs.push(
    [`Snodo-Job: ${jobId}`, `Snodo-Coder: ${singleLine(options.coderId)}@${version}`, ...trailerLike].join(
      '\n',
    ),
  );
  return `${paragraphs.join('\n\n')}\n`;
}
