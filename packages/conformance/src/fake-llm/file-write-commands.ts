import path from 'node:path';

/**
 * The text payloads that write files through tools that are not dedicated write tools: a patch in the
 * Codex `apply_patch` grammar, and a POSIX shell script.
 */

/** A file the script wants the client to write. */
export interface FileToWrite {
  /** Path as the script gave it; relative paths are relative to the client's workspace. */
  path: string;
  /** Full new content of the file. */
  content: string;
}

/**
 * A patch in the Codex `apply_patch` grammar (also used by OpenCode's `apply_patch`) that adds each file.
 * NOTE: the grammar is line-based, so the written file always ends with a newline even when `content`
 * does not; a trailing newline in `content` is not doubled.
 */
export function buildAddFilePatch(files: readonly FileToWrite[]): string {
  const lines = ['*** Begin Patch'];
  for (const file of files) {
    lines.push(`*** Add File: ${file.path}`);
    const body = file.content.endsWith('\n') ? file.content.slice(0, -1) : file.content;
    if (file.content.length > 0) {
      for (const line of body.split('\n')) lines.push(`+${line}`);
    }
  }
  lines.push('*** End Patch');
  return lines.join('\n');
}

/** Quotes text as one POSIX shell word. */
export function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A POSIX shell script that creates each file's directory and writes the exact content (no trailing
 * newline added), for clients whose only way to write is a shell tool.
 */
export function buildShellWriteScript(files: readonly FileToWrite[]): string {
  const commands: string[] = [];
  for (const file of files) {
    const directory = path.posix.dirname(file.path);
    if (directory !== '.' && directory !== '/') commands.push(`mkdir -p ${quoteForShell(directory)}`);
    commands.push(`printf '%s' ${quoteForShell(file.content)} > ${quoteForShell(file.path)}`);
  }
  return commands.join(' && ');
}
