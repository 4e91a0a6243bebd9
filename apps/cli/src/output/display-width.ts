/** Colour and style escape sequences, which take no room on screen. */
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * East Asian Wide and Fullwidth code points (Unicode's EastAsianWidth.txt, W and F), as ranges: CJK,
 * Hangul, kana, fullwidth forms. A terminal gives each two columns.
 */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  let low = 0;
  let high = WIDE_RANGES.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = WIDE_RANGES[middle]!;
    if (codePoint < start) high = middle - 1;
    else if (codePoint > end) low = middle + 1;
    else return true;
  }
  return false;
}

/** Marks, format characters (zero-width joiner, variation selectors…) and controls take no column. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u;
const EMOJI_PRESENTATION = /\p{Extended_Pictographic}/u;
/** Printable ASCII: one column per character, no segmenting needed (most of what snodo prints). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// Made on first use: constructing a grapheme segmenter costs ~25 ms of ICU set-up, more than the rest of a
// short command such as `snodo task list`, whose tables are usually ASCII.
let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

/** The columns one grapheme (a letter with its marks, an emoji sequence) takes. */
function graphemeWidth(grapheme: string): number {
  const first = grapheme.codePointAt(0) ?? 0;
  if (ZERO_WIDTH.test(String.fromCodePoint(first))) {
    return [...grapheme].every((character) => ZERO_WIDTH.test(character)) ? 0 : 1;
  }
  // An emoji with the emoji presentation selector (U+FE0F) or a ZWJ sequence is drawn two columns wide.
  if (EMOJI_PRESENTATION.test(grapheme) && (grapheme.includes('\uFE0F') || grapheme.includes('\u200D'))) {
    return 2;
  }
  return isWide(first) ? 2 : 1;
}

/** `text` without colour escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The columns `text` takes on a terminal: colour escapes 0, combining marks 0, wide CJK and emoji 2,
 * everything else 1, counted per grapheme (so `é` written as e + U+0301 is one column).
 */
export function displayWidth(text: string): number {
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  for (const { segment } of graphemes(plain)) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` cut to at most `width` columns, ending in `…` when it was cut. Colours are dropped from a cut
 * text (an escape cut in half would colour the rest of the line).
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  const plain = stripAnsi(text);
  if (PRINTABLE_ASCII.test(plain)) return `${plain.slice(0, width - 1)}…`;
  let shown = '';
  let used = 0;
  for (const { segment } of graphemes(plain)) {
    const next = graphemeWidth(segment);
    if (used + next > width - 1) break;
    shown += segment;
    used += next;
  }
  return `${shown}…`;
}
