/**
 * Optimal string alignment distance (Levenshtein plus swapping two neighbours), so `modse` is one edit from
 * `modes`. Used for "did you mean" hints on unknown keys, undefined ids and unknown predicates.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, () => new Array<number>(columns).fill(0));
  for (let i = 0; i < rows; i += 1) table[i]![0] = i;
  for (let j = 0; j < columns; j += 1) table[0]![j] = j;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, table[i - 2]![j - 2]! + 1);
      }
      table[i]![j] = best;
    }
  }
  return table[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, or `undefined` when none is close enough to be a plausible typo (at
 * a third of the word's length, between 1 and 3 edits; none for words under 3 characters). Case and
 * `-`/`_` differences count as near misses, since YAML keys are snake_case and ids are often kebab-case.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const normalised = normalise(word);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = normalise(candidate) === normalised ? 0 : editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Words of one or two characters are too short for a typo to be told from a different word.
  const allowed = word.length < 3 ? 0 : Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return bestDistance <= allowed ? best : undefined;
}

function normalise(word: string): string {
  return word.toLowerCase().replaceAll('-', '_');
}

/** ` (did you mean \`x\`?)` or the empty string, ready to append to a message. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? '' : ` (did you mean \`${match}\`?)`;
}
