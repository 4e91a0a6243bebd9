/**
 * A value shaped like a credential even under an innocent name: one long run of key characters with
 * both letters and digits, that is not a path or a URL. For values shown whole otherwise (config), where a
 * false alarm costs a masked value and a miss shows a key.
 */
export function looksLikeSecret(value: string): boolean {
  return (
    value.length >= 20 &&
    /^[A-Za-z0-9_\-.+=/]+$/.test(value) &&
    /[0-9]/.test(value) &&
    /[A-Za-z]/.test(value) &&
    !value.startsWith('/') &&
    !value.startsWith('.')
  );
}
