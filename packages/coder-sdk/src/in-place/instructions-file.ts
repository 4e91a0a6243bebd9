import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readFileState, writeFileState } from './file-state.js';

/** The default name of the instructions file an in-place coder finds in its worktree. */
export const DEFAULT_INSTRUCTIONS_FILE_NAME = '.snodo-instructions.md';

/**
 * Why `fileName` cannot be used as the instructions file, or `undefined`. It must be a plain relative
 * path inside the worktree and outside `.git` and `.snodo/`.
 */
export function instructionsFileNameProblem(fileName: string): string | undefined {
  if (fileName === '' || fileName.includes('\0') || fileName.includes('\\'))
    return 'is empty or has a NUL or backslash';
  if (path.posix.isAbsolute(fileName)) return 'is absolute';
  const segments = fileName.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) {
    return 'has an empty, "." or ".." segment';
  }
  const first = segments[0]?.toLowerCase();
  if (first === '.git' || first === '.snodo') return 'is inside .git or .snodo';
  return undefined;
}

/** Adds `/<fileName>` to the repository's `info/exclude` unless a line already says so. */
async function excludeFromGit(commonDirectory: string, fileName: string): Promise<void> {
  const excludePath = path.join(commonDirectory, 'info', 'exclude');
  const pattern = `/${fileName}`;
  let existing = '';
  try {
    existing = await readFile(excludePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing.split('\n').some((line) => line.trim() === pattern)) return;
  await mkdir(path.dirname(excludePath), { recursive: true });
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  // Appending (not rewriting) keeps lines other snodo processes add at the same moment.
  await appendFile(excludePath, `${separator}# snodo: instructions file for coders\n${pattern}\n`);
}

/**
 * Writes snodo's instructions into the worktree where the coder's CLI reads them, and excludes that name
 * through the shared `info/exclude` so `git status` stays clean and a CLI's own `git add -A` never picks
 * it up. Returns a function that puts the path back as it was (removes the file, or restores a file that
 * was there before), which is safe to call more than once.
 */
export async function placeInstructionsFile(options: {
  workspace: string;
  commonDirectory: string;
  fileName: string;
  text: string;
}): Promise<() => Promise<void>> {
  const filePath = path.join(options.workspace, ...options.fileName.split('/'));
  const previous = await readFileState(filePath);
  await excludeFromGit(options.commonDirectory, options.fileName);
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, options.text);
  let restored = false;
  return async () => {
    if (restored) return;
    restored = true;
    await writeFileState(filePath, previous);
  };
}
