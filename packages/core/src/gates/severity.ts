/**
 * How serious a gate's verdict is, in the order the policy uses: `pass` < `warn` < `blocker`.
 * `warn` withholds approval (it never counts as a pass) and `blocker` halts the phase.
 */
export type Severity = 'pass' | 'warn' | 'blocker';

/** Every severity, lowest first. */
export const SEVERITIES: readonly Severity[] = ['pass', 'warn', 'blocker'];

const rank: Record<Severity, number> = { pass: 0, warn: 1, blocker: 2 };

/** `true` when `value` is one of `pass`, `warn`, `blocker` (the wire value of an LLM verdict is untrusted). */
export function isSeverity(value: unknown): value is Severity {
  return value === 'pass' || value === 'warn' || value === 'blocker';
}

/**
 * Negative when `left` is less serious than `right`, zero when equal, positive when more serious.
 * An explicit order, never a string comparison (`'warn' > 'blocker'` lexically).
 */
export function compareSeverity(left: Severity, right: Severity): number {
  return rank[left] - rank[right];
}
