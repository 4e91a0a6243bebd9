import type { Stats } from 'node:fs';
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
} from 'yaml';
import { type DocumentPath, formatDocumentPath, type PathIssue, type SourceIssue } from './source-issue.js';

/**
 * A YAML file parsed with its positions kept, so any problem found later (by zod, by a well-formedness
 * check) can name the line and column it comes from. The protocol and config loaders both build on it.
 */
export interface YamlSource {
  /** The file name used in issues. */
  readonly file: string;
  /** The parsed document; keeps nodes, ranges and comments (config edits write it back with comments). */
  readonly document: Document.Parsed;
  /** Maps byte offsets to lines and columns. */
  readonly lineCounter: LineCounter;
  /** The document as plain data (`undefined` when it has syntax errors). */
  readonly value: unknown;
  /** Syntax errors and YAML warnings, already positioned. Empty for a clean file. */
  readonly issues: readonly SourceIssue[];
}

/**
 * The largest YAML file snodo parses: 1 MiB. A protocol or a config is a page or two (the largest template
 * is 6.5 KB), so a file 150 times that is a mistake (a log pasted in, the wrong file linked), and the
 * parser spends over a second on each megabyte before any check can name the problem (a 20 MB protocol
 * took 10 s to be refused).
 */
export const MAX_YAML_SOURCE_BYTES = 1024 * 1024;

/** Sizes in whole KiB, rounded up: a file one byte over the limit does not read as the limit. */
function kibibytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`;
}

/** The issue of a file above `MAX_YAML_SOURCE_BYTES`: its size, the limit and what to do about it. */
export function yamlTooLargeIssue(file: string, bytes: number): SourceIssue {
  return {
    file,
    line: 1,
    column: 1,
    path: '',
    message:
      `the file is ${kibibytes(bytes)}, above the ${kibibytes(MAX_YAML_SOURCE_BYTES)} snodo reads, so it was ` +
      'not parsed; a protocol or config is a few KB: check that this is the file you meant and cut it down',
    severity: 'error',
    rule: 'size',
  };
}

/**
 * Why a file with these `stats` is not read at all, or `undefined`: it is too large (known from its size,
 * before reading it), a directory, or not a regular file (a device or a pipe reports no size and can be
 * endless: `/dev/zero` would be read until memory runs out).
 */
export function unreadableYamlFile(file: string, stats: Stats): SourceIssue | undefined {
  const issue = (message: string): SourceIssue => ({
    file,
    line: 1,
    column: 1,
    path: '',
    message,
    severity: 'error',
    rule: 'file',
  });
  if (stats.isDirectory()) return issue('it is a directory, not a file');
  if (!stats.isFile())
    return issue('it is not a regular file (a device, a pipe or a socket), so it was not read');
  if (stats.size > MAX_YAML_SOURCE_BYTES) return yamlTooLargeIssue(file, stats.size);
  return undefined;
}

/**
 * Parses YAML keeping positions. Syntax errors do not throw: they come back as positioned issues with rule
 * `yaml`, and `value` is left undefined because a half-parsed document would only produce misleading
 * schema errors. Text above `MAX_YAML_SOURCE_BYTES` is not parsed: its one issue (rule `size`) says so.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  // Text that did not come from a checked file (an embedder's, a file that grew after its size was read).
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_YAML_SOURCE_BYTES) {
    const document = parseDocument('', { lineCounter });
    return { file, document, lineCounter, value: undefined, issues: [yamlTooLargeIssue(file, bytes)] };
  }
  // NOTE: merge keys (`<<: *anchor`) are YAML 1.1; the Python original read files with PyYAML (1.1), so
  // files written for it may use them. Duplicate keys stay an error: PyYAML silently kept the last one.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const issues: SourceIssue[] = [];
  for (const error of document.errors) {
    issues.push(yamlIssue(file, lineCounter, error.pos[0], error.message, 'error'));
  }
  for (const warning of document.warnings) {
    issues.push(yamlIssue(file, lineCounter, warning.pos[0], warning.message, 'warning'));
  }
  let value: unknown;
  if (document.errors.length === 0) {
    try {
      value = document.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      // An alias bomb (exponentially nested aliases) is refused by the yaml library while converting.
      issues.push(yamlIssue(file, lineCounter, 0, (error as Error).message, 'error'));
    }
  }
  return { file, document, lineCounter, value, issues };
}

function yamlIssue(
  file: string,
  lineCounter: LineCounter,
  offset: number,
  message: string,
  severity: 'error' | 'warning',
): SourceIssue {
  const position = lineCounter.linePos(offset);
  return {
    file,
    line: position.line,
    column: position.col,
    path: '',
    message: `YAML ${severity === 'error' ? 'syntax error' : 'warning'}: ${firstLine(message)}`,
    severity,
    rule: 'yaml',
  };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).trim();
}

/** Gives a path-located issue the line and column of the node it names. */
export function positionIssue(source: YamlSource, issue: PathIssue): SourceIssue {
  const node = findNode(source.document, issue.path, issue.target ?? 'value');
  const offset = node?.range?.[0] ?? 0;
  const position = source.lineCounter.linePos(offset);
  return {
    file: source.file,
    line: Math.max(1, position.line),
    column: Math.max(1, position.col),
    path: formatDocumentPath(issue.path),
    message: issue.message,
    severity: issue.severity,
    rule: issue.rule,
  };
}

/**
 * The node at `path`, or the deepest node on the way when the rest is missing (a required key that is
 * absent points at the mapping that should hold it). `target: 'key'` returns the key of the last entry.
 */
export function findNode(
  document: Document.Parsed,
  path: DocumentPath,
  target: 'key' | 'value',
): Node | undefined {
  let current: Node | null | undefined = resolveAlias(document, document.contents);
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(current)) {
      const pair = current.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) return current;
      const key = pair.key as Node;
      if (last && target === 'key') return key;
      const value = resolveAlias(document, pair.value as Node | null);
      // `key:` with nothing after it has no value node; the key is the best place to point at.
      if (value === null || value === undefined) return key;
      current = value;
    } else if (isSeq(current) && typeof segment === 'number') {
      const item = resolveAlias(document, current.items[segment] as Node | null | undefined);
      if (item === null || item === undefined) return current;
      current = item;
    } else {
      return current ?? undefined;
    }
  }
  return current ?? undefined;
}

function resolveAlias(document: Document.Parsed, node: Node | null | undefined): Node | null | undefined {
  if (isAlias(node)) return (node.resolve(document) as Node | undefined) ?? node;
  return node;
}
