import { git } from './git.js';

/**
 * The unified diff between two commits, as LLM judges and `snodo task diff` show it. Binary changes are
 * included in git's binary format so the patch can be applied; external diff drivers and textconv are off.
 */
export async function diffPatch(options: {
  cwd: string;
  from: string;
  to: string;
  /** Limit to these paths (literal, not globs). */
  paths?: readonly string[];
  /** Lines of context; git's default is 3. */
  contextLines?: number;
}): Promise<string> {
  const args = ['diff', '-M', '--binary', '--no-ext-diff', '--no-textconv', '--no-color'];
  if (options.contextLines !== undefined) args.push(`--unified=${options.contextLines}`);
  args.push('--end-of-options', options.from, options.to, '--', ...(options.paths ?? []));
  const result = await git(args, { cwd: options.cwd, readOnly: true });
  return result.stdout;
}
