/** `API error 500`, `rate limited (429)`, or `API error` when the CLI gave no status. */
export function describeProviderStatus(status: number | undefined): string {
  if (status === 429) return 'rate limited (429)';
  return status === undefined ? 'API error' : `API error ${status}`;
}
