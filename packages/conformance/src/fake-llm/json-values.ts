/**
 * Small readers for parsed JSON. Request bodies arrive as `unknown`; these keep the dialect readers short
 * without trusting any field's type.
 */

/** A JSON object, or `undefined` when the value is anything else (arrays included). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The value when it is an array, otherwise an empty array. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is a string, otherwise `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a finite number, otherwise `undefined`. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Every string leaf of a JSON value, depth first, so a search can look inside nested message content. */
export function stringLeaves(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') {
    into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) stringLeaves(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) stringLeaves(item, into);
  }
  return into;
}
