/** Small text helpers shared by the summary, `snodo meta`, `snodo task list` and the progress line. */

/** `850ms`, `4.2s`, `3m 07s`, `1h 02m`. */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '-';
  if (milliseconds < 1_000) return `${Math.round(milliseconds)}ms`;
  const seconds = milliseconds / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** How long ago, for `snodo task list`: `12s`, `5m`, `3h`, `2d`. */
export function formatAge(fromIso: string, now: number = Date.now()): string {
  const elapsed = now - Date.parse(fromIso);
  if (!Number.isFinite(elapsed)) return '-';
  const seconds = Math.max(0, Math.floor(elapsed / 1_000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** `12,345` (tokens are counted, not measured: no decimals). */
export function formatCount(count: number): string {
  // Grouped by hand: the first `toLocaleString` starts ICU's number formatting, ~30 ms of a `snodo meta`.
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Orders ASCII keys such as ISO timestamps by code point, which is their time order. `localeCompare` gives
 * the same order but starts ICU's collator first (~15 ms, a tenth of `snodo task list`).
 */
export function compareCodePoints(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `$0.0123`; `unknown` when no price was known and none was reported. */
export function formatCost(costUsd: number | null | undefined): string {
  if (costUsd === null || costUsd === undefined) return 'unknown';
  return `$${costUsd.toFixed(4)}`;
}

/** The first 10 characters of a commit id, enough to paste into git. */
export function shortSha(sha: string | undefined): string {
  return sha === undefined ? '-' : sha.slice(0, 10);
}

/** The first non-empty line of a task, shortened to `width` characters. */
export function firstLine(text: string, width = 72): string {
  const line =
    text
      .split('\n')
      .find((candidate) => candidate.trim() !== '')
      ?.trim() ?? '';
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** `refs/heads/main` → `main`. */
export function branchName(ref: string | undefined): string | undefined {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/** What a run's outcome means, in words a user reads at a glance. */
export function outcomeWords(
  status: string,
  outcome: string | undefined,
  details: { readonly baseRef?: string | undefined; readonly branch?: string | undefined } = {},
): string {
  const base = branchName(details.baseRef);
  switch (outcome) {
    case 'merged':
      return base === undefined ? 'merged' : `merged into ${base}`;
    case 'branch_kept':
      return details.branch === undefined ? 'done, branch kept' : `done, kept on branch ${details.branch}`;
    case 'no_changes':
      return 'done, nothing to change';
    case 'blocker':
      return 'halted: a gate found a blocker';
    case 'escalated':
      return 'halted: escalated to a human (approve or reject)';
    case 'validator_error':
      return 'halted: a gate could not decide (fail closed)';
    case 'merge_conflict':
      return 'halted: merge conflict';
    case 'merge_deferred':
      return 'halted: merge deferred (your checkout has changes in the way)';
    case 'not_fast_forward':
      return 'halted: the base moved and ff-only cannot land it';
    case 'snodo_mutation_blocked':
      return 'halted: the coder changed .snodo/';
    case 'git_metadata_tampered':
      return 'halted: the coder changed git hooks or config';
    case 'proposal_refused':
      return 'halted: the coder proposed a path outside the worktree';
    case 'cancelled':
      return 'cancelled';
    case 'rejected':
      return 'rejected by a human';
    case 'abandoned':
      return 'abandoned';
    default:
      if (status === 'running') return 'running';
      if (status === 'interrupted') return 'interrupted (the process died)';
      if (status === 'failed') return `failed${outcome === undefined ? '' : ` (${outcome})`}`;
      return outcome === undefined ? status : `${status}: ${outcome}`;
  }
}
