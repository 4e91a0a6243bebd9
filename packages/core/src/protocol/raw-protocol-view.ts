/**
 * Tolerant readers over the protocol as plain YAML data. Well-formedness checks use them instead of the
 * zod-parsed value so they still run when the schema found errors elsewhere: a user sees schema problems
 * and WF violations in one report.
 */

/** A mapping entry of a list, with its index in the file. */
export interface IndexedRecord {
  /** Position in its list. */
  readonly index: number;
  /** The entry's keys and values. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** A value that is a YAML mapping. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The mapping entries of a list, skipping entries of any other shape (the schema reports those). */
export function recordsOf(value: unknown): IndexedRecord[] {
  if (!Array.isArray(value)) return [];
  const entries: IndexedRecord[] = [];
  for (const [index, item] of value.entries()) {
    if (isRecord(item)) entries.push({ index, record: item });
  }
  return entries;
}

/** The string entries of a list with their indexes. */
export function stringsOf(value: unknown): { index: number; text: string }[] {
  if (!Array.isArray(value)) return [];
  const entries: { index: number; text: string }[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item === 'string') entries.push({ index, text: item });
  }
  return entries;
}

/** A non-blank string, or `undefined`. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `a, b, c` with each entry in backticks, or `(none)`. */
export function listOf(values: Iterable<string>): string {
  const items = [...values].map((value) => `\`${value}\``);
  return items.length > 0 ? items.join(', ') : '(none)';
}
