/**
 * One problem found in a YAML file snodo reads (`.snodo/protocol.yml`, `$SNODO_HOME/config.yml`), with the
 * place a user opens in an editor. `snodo protocol validate` prints these; `ProtocolInvalidError` and
 * `ConfigInvalidError` carry every one of them at once, so a user fixes a file in one pass.
 */
export interface SourceIssue {
  /** The file as the caller named it (relative paths stay relative, so messages stay short). */
  readonly file: string;
  /** 1-based line of the offending node (the key for an unknown key, the value for a bad value). */
  readonly line: number;
  /** 1-based column of the offending node. */
  readonly column: number;
  /** Where in the document, as `modes[0].tools[2]`; empty for the document itself. */
  readonly path: string;
  /** What is wrong and, where it helps, what to write instead. */
  readonly message: string;
  /** Errors fail the load; warnings are reported and the file is used. */
  readonly severity: 'error' | 'warning';
  /**
   * Which check found it: `yaml`, `schema`, `unknown-key`, `legacy`, `unique-ids`, `WF1`…`WF5`, `coder`.
   * Lets a caller (or a test) tell problems apart without parsing messages.
   */
  readonly rule?: string | undefined;
}

/** A path into a parsed YAML document: mapping keys and sequence indexes. */
export type DocumentPath = readonly (string | number)[];

/**
 * A problem located by document path, before it is given a line and column. Checks produce these because
 * they work on plain values; the loader maps each path through the YAML document.
 */
export interface PathIssue {
  /** Path of the node the message is about. */
  readonly path: DocumentPath;
  /** See `SourceIssue.message`. */
  readonly message: string;
  /** See `SourceIssue.severity`. */
  readonly severity: 'error' | 'warning';
  /** See `SourceIssue.rule`. */
  readonly rule: string;
  /**
   * Which part of a mapping entry to point at: its key (unknown or legacy keys) or its value (default).
   */
  readonly target?: 'key' | 'value' | undefined;
}

/** Renders `modes[0].tools[2]` from `['modes', 0, 'tools', 2]`. */
export function formatDocumentPath(path: DocumentPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

/** Sorts issues into reading order (line, then column), keeping checks' order for ties. */
export function sortSourceIssues(issues: readonly SourceIssue[]): SourceIssue[] {
  return issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => a.issue.line - b.issue.line || a.issue.column - b.issue.column || a.index - b.index)
    .map((entry) => entry.issue);
}

/**
 * One issue as a compiler-style line, `file:line:column: message` (warnings read
 * `file:line:column: warning: message`), which editors and terminals turn into links.
 */
export function formatSourceIssue(issue: SourceIssue): string {
  const where = `${issue.file}:${issue.line}:${issue.column}`;
  return issue.severity === 'warning' ? `${where}: warning: ${issue.message}` : `${where}: ${issue.message}`;
}

/** Every issue, one per line, in reading order. */
export function formatSourceIssues(issues: readonly SourceIssue[]): string {
  return sortSourceIssues(issues).map(formatSourceIssue).join('\n');
}

/** `2 errors, 1 warning` for a message header. */
export function countSourceIssues(issues: readonly SourceIssue[]): string {
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  const parts = [`${errors} ${errors === 1 ? 'error' : 'errors'}`];
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.join(', ');
}
