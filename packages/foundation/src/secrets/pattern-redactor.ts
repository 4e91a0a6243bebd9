import {
  PRIVATE_KEY_BEGIN,
  PRIVATE_KEY_END,
  PRIVATE_KEY_MARKER_LENGTH,
  SECRET_PATTERNS,
  SHORTEST_SECRET_WORD,
} from './secret-patterns.js';

/** The characters of a word that a secret pattern may start at. */
const wordCharacter = /[A-Za-z0-9_.-]/;
const word = /[A-Za-z0-9_.-]+/g;

/** A word still growing at the end of a chunk is held back up to this many characters. */
const longestHeldWord = 4096;

/**
 * A BEGIN line with no END within this many characters was not a key (documentation, a truncated dump):
 * output resumes after it, so one stray line cannot swallow the rest of a transcript.
 */
const longestKeyBlock = 32 * 1024;

/** The marker that replaces a private key block. */
export const PRIVATE_KEY_MARKER = '[redacted private key]';

/**
 * Removes secrets recognisable by their shape (`SECRET_PATTERNS`) and PEM private key blocks from a stream
 * of text, chunk by chunk. A key block is dropped from its BEGIN line to its END line, whether its lines
 * arrive raw or JSON-escaped (`\n`) inside one line, and however the chunks cut it. Held back at any time:
 * at most an unfinished word (4 KiB) or an unfinished BEGIN/END line; inside a key block nothing is passed
 * on. Linear in the input: each character is scanned a bounded number of times, words are matched with
 * anchored patterns, and what is held back is not scanned again.
 */
export class PatternRedactor {
  private pending = '';
  /** `pending` is one unfinished word and nothing else, so a chunk of word characters extends it cheaply. */
  private pendingIsWord = false;
  private insideKey = false;
  private keySkipped = 0;
  /** The last character passed on: a word at the start of the next text may follow a JSON escape. */
  private previous = '';

  /** Takes the next chunk; returns the text that is now safe to pass on. */
  push(text: string): string {
    // What was held back was scanned already; only its last characters can begin a marker.
    const scanFrom = Math.max(0, this.pending.length - PRIVATE_KEY_MARKER_LENGTH);
    return this.process(this.pending + text, scanFrom, text, false);
  }

  /** Returns whatever is still held back, redacted; call once at the end of the stream. */
  flush(): string {
    const output = this.process(this.pending, 0, '', true);
    this.pending = '';
    this.pendingIsWord = false;
    this.insideKey = false;
    this.keySkipped = 0;
    this.previous = '';
    return output;
  }

  /** `redactWords` of text that follows what was passed on so far. */
  private release(text: string): string {
    if (text === '') return '';
    const output = redactWords(text, this.previous);
    this.previous = text.charAt(text.length - 1);
    return output;
  }

  private process(input: string, scanFrom: number, chunk: string, final: boolean): string {
    let text = input;
    let from = scanFrom;
    let output = '';
    for (;;) {
      if (this.insideKey) {
        const end = search(PRIVATE_KEY_END, text, from);
        if (end !== undefined) {
          text = text.slice(end.index + end.length);
          from = 0;
          this.insideKey = false;
          this.keySkipped = 0;
          continue;
        }
        const keep = final ? 0 : Math.min(text.length, PRIVATE_KEY_MARKER_LENGTH);
        this.keySkipped += text.length - keep;
        if (this.keySkipped > longestKeyBlock) {
          // Not a key after all: resume with what follows.
          this.insideKey = false;
          this.keySkipped = 0;
          text = text.slice(text.length - keep);
          from = 0;
          continue;
        }
        this.pending = text.slice(text.length - keep);
        this.pendingIsWord = false;
        return output;
      }
      const begin = search(PRIVATE_KEY_BEGIN, text, from);
      if (begin !== undefined) {
        output += this.release(text.slice(0, begin.index)) + PRIVATE_KEY_MARKER;
        this.previous = '-';
        text = text.slice(begin.index + begin.length);
        from = 0;
        this.insideKey = true;
        continue;
      }
      const { cut, wordOnly } = final ? { cut: text.length, wordOnly: false } : this.safeCut(text, chunk);
      this.pending = text.slice(cut);
      this.pendingIsWord = wordOnly && this.pending !== '';
      return output + this.release(text.slice(0, cut));
    }
  }

  /**
   * Where `text` can be cut so that nothing after the cut is needed to recognise what comes before it:
   * before an unfinished word at the end (at most `longestHeldWord` characters of it), or before an
   * unfinished BEGIN line. Costs the length of the new chunk, not of what is held back. `wordOnly`: what
   * is held back is one unfinished word.
   */
  private safeCut(text: string, chunk: string): { cut: number; wordOnly: boolean } {
    const chunkWord = trailingWordLength(chunk);
    const wordLength =
      chunkWord === chunk.length && this.pendingIsWord ? chunkWord + text.length - chunk.length : chunkWord;
    const wordCut = text.length - Math.min(wordLength, longestHeldWord, text.length);
    let cut = wordCut;
    const tail = text.slice(-PRIVATE_KEY_MARKER_LENGTH);
    const marker = tail.lastIndexOf('-----BEGIN');
    if (marker !== -1) cut = Math.min(cut, text.length - tail.length + marker);
    for (let length = Math.min(10, text.length); length > 0; length -= 1) {
      if ('-----BEGIN'.startsWith(text.slice(text.length - length))) {
        cut = Math.min(cut, text.length - length);
        break;
      }
    }
    // Never split a UTF-16 surrogate pair.
    if (cut > 0 && cut < text.length) {
      const code = text.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    return { cut, wordOnly: cut === wordCut };
  }
}

/** How many word characters `text` ends with (at most `longestHeldWord`). */
function trailingWordLength(text: string): number {
  let length = 0;
  while (
    length < text.length &&
    length < longestHeldWord &&
    wordCharacter.test(text.charAt(text.length - 1 - length))
  ) {
    length += 1;
  }
  return length;
}

/** The first match of the global `pattern` in `text` at or after `from`. */
function search(pattern: RegExp, text: string, from: number): { index: number; length: number } | undefined {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? undefined : { index: match.index, length: match[0].length };
}

/**
 * Every pattern in one sticky expression, each the group of its index in `SECRET_PATTERNS`: a word costs
 * one attempt instead of one per pattern (a line of one-letter words took five times what prose takes),
 * and the first alternative that matches is the first pattern that would.
 */
const anyPattern = new RegExp(SECRET_PATTERNS.map(({ pattern }) => `(${pattern.source})`).join('|'), 'y');

/** The first pattern matching at `index`, as `[length, kind]`. */
function matchAt(text: string, index: number): [number, string] | undefined {
  anyPattern.lastIndex = index;
  const match = anyPattern.exec(text);
  if (match === null) return undefined;
  const group = match.findIndex((value, position) => position > 0 && value !== undefined);
  return [match[0].length, SECRET_PATTERNS[group - 1]?.kind ?? 'secret'];
}

/**
 * Replaces every secret that starts a word. A word right after a JSON escape (`\n`, `\t`, `\r`) is also
 * tried one character in, where the real word begins (`\nsk-ant-…` reads as the word `nsk-ant-…`).
 */
function redactWords(text: string, previous: string): string {
  let output = '';
  let from = 0;
  word.lastIndex = 0;
  for (let found = word.exec(text); found !== null; found = word.exec(text)) {
    // No pattern matches a shorter word: a line of one-letter words (`A A A …`) costs no regex run per word.
    if (found[0].length < SHORTEST_SECRET_WORD) continue;
    const start = found.index;
    const before = start > 0 ? text.charAt(start - 1) : previous;
    const escaped = before === '\\' && /[ntr]/.test(found[0].charAt(0));
    for (const offset of escaped ? [0, 1] : [0]) {
      const match = matchAt(text, start + offset);
      if (match === undefined) continue;
      output += `${text.slice(from, start + offset)}[redacted ${match[1]}]`;
      from = start + offset + match[0];
      word.lastIndex = from;
      break;
    }
  }
  return output + text.slice(from);
}
