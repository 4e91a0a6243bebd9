/**
 * Removes a coder's model namespace (`agy/`) from a model string: `agy/gemini-2.5-pro` → `gemini-2.5-pro`.
 * A model without the prefix is returned unchanged; an empty result, or no model, is `undefined` ("use the
 * CLI's own default", so the adapter adds no model flag).
 *
 * Core strips the prefix already; adapters call this again defensively, because passing `agy/…` to a CLI
 * that does not know the namespace fails in confusing ways.
 */
export function stripModelPrefix(model: string | undefined, prefix: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const trimmed = model.trim();
  const stripped =
    prefix !== undefined && prefix !== '' && trimmed.startsWith(prefix)
      ? trimmed.slice(prefix.length)
      : trimmed;
  return stripped === '' ? undefined : stripped;
}
