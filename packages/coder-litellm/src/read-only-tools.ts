import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Tool } from 'ai';
import { z } from 'zod';
import {
  isInsideDirectory,
  lexicalPathProblem,
  pathSegments,
  READ_PROTECTED_SEGMENTS,
} from './workspace-path.js';

/** Files above this size are not read at all: they are data or build output, not code to edit. */
export const MAX_READABLE_FILE_BYTES = 4 * 1024 * 1024;
/** `read_file` returns at most this many characters; the rest is reached with `read_file_lines`. */
export const READ_FILE_CHARACTER_LIMIT = 100_000;
/** `read_file_lines` returns at most this many lines per call. */
export const READ_LINES_LIMIT = 2_000;
/** `list_files` returns at most this many entries. */
export const LIST_FILES_LIMIT = 1_000;
/** Directories listed but not descended into: dependencies, not the project's own code. */
const NOT_DESCENDED = new Set(['node_modules']);

/** A refusal or failure the model should read and work around; the AI SDK turns it into a tool error. */
class ToolInputRefused extends Error {}

/**
 * Resolves a path the model asked to read inside the workspace, or throws a `ToolInputRefused` the model
 * reads: relative paths only, no `..`, nothing under `.git/`, and no symbolic link leading outside (the
 * real path is checked, so a link to `/etc` or to `../other-repo` is refused).
 */
function resolveReadPath(realRoot: string, requested: string, allowRoot = false): string {
  const problem = lexicalPathProblem(requested, READ_PROTECTED_SEGMENTS, { allowRoot });
  if (problem !== undefined) throw new ToolInputRefused(`cannot read "${requested}": ${problem}`);
  const target = join(realRoot, ...pathSegments(requested));
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw new ToolInputRefused(`"${requested}" does not exist; use list_files to see what does`);
  }
  if (!isInsideDirectory(realRoot, real)) {
    throw new ToolInputRefused(
      `cannot read "${requested}": it leads outside the repository through a symbolic link`,
    );
  }
  const inside = relative(realRoot, real).split(sep);
  if (inside.some((segment) => READ_PROTECTED_SEGMENTS.has(segment.toLowerCase()))) {
    throw new ToolInputRefused(`cannot read "${requested}": it leads into .git/, which is off limits`);
  }
  return real;
}

/** Reads a text file the model asked for, refusing directories, huge files and binary content. */
function readTextFile(realRoot: string, requested: string): string {
  const path = resolveReadPath(realRoot, requested);
  const stats = statSync(path);
  if (stats.isDirectory()) throw new ToolInputRefused(`"${requested}" is a directory; use list_files`);
  if (stats.size > MAX_READABLE_FILE_BYTES) {
    throw new ToolInputRefused(`"${requested}" has ${stats.size} bytes, more than snodo lets a model read`);
  }
  const buffer = readFileSync(path);
  if (buffer.subarray(0, 8192).includes(0)) {
    throw new ToolInputRefused(`"${requested}" is a binary file (${stats.size} bytes); it cannot be shown`);
  }
  return buffer.toString('utf8');
}

/**
 * Lists files and directories under `directory`, depth first in name order, as paths relative to the
 * root with `/` after directories. `.git` is left out; `node_modules` is shown but not descended into;
 * symbolic links are shown but never followed.
 */
export function listWorkspaceFiles(
  realRoot: string,
  directory: string,
  limit: number = LIST_FILES_LIMIT,
): { entries: string[]; truncated: boolean } {
  const start = resolveReadPath(realRoot, directory, true);
  if (!statSync(start).isDirectory()) throw new ToolInputRefused(`"${directory}" is a file; use read_file`);
  const prefix = pathSegments(directory).join('/');
  const entries: string[] = [];
  let truncated = false;
  const walk = (absolute: string, relativePath: string): void => {
    let children: Dirent[];
    try {
      children = readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    children.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const child of children) {
      if (READ_PROTECTED_SEGMENTS.has(child.name.toLowerCase())) continue;
      if (entries.length >= limit) {
        truncated = true;
        return;
      }
      const childPath = relativePath === '' ? child.name : `${relativePath}/${child.name}`;
      if (child.isDirectory()) {
        entries.push(`${childPath}/`);
        if (!NOT_DESCENDED.has(child.name)) walk(join(absolute, child.name), childPath);
      } else {
        entries.push(childPath);
      }
    }
  };
  walk(start, prefix);
  return { entries, truncated };
}

/** The read-only tools, confined to the workspace; `onCall` reports each call as progress. */
export function createReadOnlyTools(
  workspace: string,
  onCall: (description: string) => void,
): Record<'read_file' | 'read_file_lines' | 'list_files', Tool> {
  const realRoot = realpathSync(workspace);
  const readFile: Tool<{ path: string }, string> = {
    description:
      'Read a whole text file of the repository. Read every file you will change before changing it. ' +
      `Files longer than ${READ_FILE_CHARACTER_LIMIT} characters are cut; read the rest with read_file_lines.`,
    inputSchema: z.object({ path: z.string().describe('Path relative to the repository root') }),
    execute: async ({ path }) => {
      onCall(`read_file ${path}`);
      const text = readTextFile(realRoot, path);
      if (text.length <= READ_FILE_CHARACTER_LIMIT) return text;
      const cut = text.lastIndexOf('\n', READ_FILE_CHARACTER_LIMIT);
      const shown = text.slice(0, cut > 0 ? cut + 1 : READ_FILE_CHARACTER_LIMIT);
      const shownLines = shown.split('\n').length - 1;
      return `${shown}\n[snodo: the file continues after line ${shownLines}; read the rest with read_file_lines]`;
    },
  };
  const readFileLines: Tool<{ path: string; start_line: number; end_line: number }, string> = {
    description: `Read lines start_line to end_line (1-based, inclusive) of a text file; at most ${READ_LINES_LIMIT} lines per call.`,
    inputSchema: z.object({
      path: z.string().describe('Path relative to the repository root'),
      start_line: z.number().int().min(1).describe('First line to read, counting from 1'),
      end_line: z.number().int().min(1).describe('Last line to read, inclusive'),
    }),
    execute: async ({ path, start_line: startLine, end_line: endLine }) => {
      onCall(`read_file_lines ${path}:${startLine}-${endLine}`);
      if (endLine < startLine) throw new ToolInputRefused('end_line is before start_line');
      const lines = readTextFile(realRoot, path).split('\n');
      const last = Math.min(endLine, lines.length, startLine + READ_LINES_LIMIT - 1);
      if (startLine > lines.length) {
        throw new ToolInputRefused(`"${path}" has only ${lines.length} lines`);
      }
      const body = lines.slice(startLine - 1, last).join('\n');
      return `[lines ${startLine}-${last} of ${lines.length}]\n${body}`;
    },
  };
  const listFiles: Tool<{ directory?: string | undefined }, string> = {
    description: `List the files under a directory of the repository, recursively (at most ${LIST_FILES_LIMIT} entries).`,
    inputSchema: z.object({
      directory: z.string().optional().describe('Directory relative to the repository root; default "."'),
    }),
    execute: async ({ directory }) => {
      const requested = directory === undefined || directory.trim() === '' ? '.' : directory;
      onCall(`list_files ${requested}`);
      const { entries, truncated } = listWorkspaceFiles(realRoot, requested);
      if (entries.length === 0) return `(${requested} is empty)`;
      const more = truncated ? `\n[snodo: more entries not shown; list a subdirectory]` : '';
      return `${entries.join('\n')}${more}`;
    },
  };
  return { read_file: readFile, read_file_lines: readFileLines, list_files: listFiles };
}
