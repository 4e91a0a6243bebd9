/**
 * Sets the `Symbol.for(markerName)` marker on `error`. Non-enumerable: checks see it; logs, JSON and test
 * diffs do not.
 */
export function markError(error: Error, markerName: string): void {
  Object.defineProperty(error, Symbol.for(markerName), { value: true });
}

/** `true` when `value` carries the `Symbol.for(markerName)` marker set by a snodo error class. */
export function hasErrorMarker(value: unknown, markerName: string): boolean {
  return (
    value != null &&
    typeof value === 'object' &&
    (value as Record<symbol, unknown>)[Symbol.for(markerName)] === true
  );
}
