/**
 * `text` without the lines that match one of `noise` (a CLI's known warnings that never explain a
 * failure), so an error's stderr tail shows the failure's own lines. The transcript keeps every line.
 * A line is matched without its line break; lines are kept in order.
 */
export function removeNoiseLines(text: string, noise: readonly RegExp[]): string {
  if (noise.length === 0 || text === '') return text;
  return text
    .split('\n')
    .filter((line) => !noise.some((pattern) => pattern.test(line.replace(/\r$/, ''))))
    .join('\n');
}
