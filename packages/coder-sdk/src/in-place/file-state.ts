import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What one path held at a moment, with enough to put it back byte for byte: a regular file's content and
 * permission bits, a symbolic link's target, or nothing.
 */
export type FileState =
  | { readonly kind: 'file'; readonly mode: number; readonly content: Buffer }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'other' }
  | { readonly kind: 'absent' };

const absent: FileState = { kind: 'absent' };

/** Reads the state of `filePath` without following a final symbolic link. */
export async function readFileState(filePath: string): Promise<FileState> {
  try {
    const stats = await lstat(filePath);
    if (stats.isSymbolicLink()) return { kind: 'symlink', target: await readlink(filePath) };
    if (stats.isFile()) return { kind: 'file', mode: stats.mode & 0o777, content: await readFile(filePath) };
    return { kind: 'other' };
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      return absent;
    }
    throw error;
  }
}

/** `true` when two states are identical (same kind, bytes, permission bits or link target). */
export function sameFileState(left: FileState, right: FileState): boolean {
  if (left.kind === 'file' && right.kind === 'file') {
    return left.mode === right.mode && left.content.equals(right.content);
  }
  if (left.kind === 'symlink' && right.kind === 'symlink') return left.target === right.target;
  return left.kind === right.kind;
}

/**
 * Puts `state` back at `filePath`: removes whatever is there now (a file, a link, a directory the coder
 * put in its place), then recreates the file with its bytes and mode, or the link. `absent` just removes.
 */
export async function writeFileState(filePath: string, state: FileState): Promise<void> {
  if (state.kind === 'other') return;
  await rm(filePath, { recursive: true, force: true });
  if (state.kind === 'absent') return;
  await mkdir(path.dirname(filePath), { recursive: true });
  if (state.kind === 'symlink') {
    await symlink(state.target, filePath);
    return;
  }
  await writeFile(filePath, state.content, { mode: state.mode });
  // NOTE: the umask narrows the mode given to writeFile; chmod sets it exactly.
  await chmod(filePath, state.mode);
}

/**
 * Every file and symbolic link under `directory`, recursively, as absolute paths, sorted. Symbolic links to
 * directories are listed, not followed. A missing directory has no files.
 */
export async function listFilesRecursively(directory: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await listFilesRecursively(entryPath)));
    else files.push(entryPath);
  }
  return files.sort();
}
