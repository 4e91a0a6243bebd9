import type { GateFinding } from '../gate-verdict.js';
import type { Predicate } from './predicate.js';

/** The gate id and predicate name of the built-in `.snodo` guard, for callers mapping it to `snodo_mutation_blocked`. */
export const SNODO_MUTATION_GUARD_ID = 'snodo_mutation_guard';

/**
 * `true` for `.snodo` itself and anything under it. Compared case-insensitively because on macOS and
 * Windows `.SNODO/protocol.yml` is the same file.
 */
export function isSnodoPath(path: string): boolean {
  const lower = path.replace(/^\.\/+/, '').toLowerCase();
  return lower === '.snodo' || lower.startsWith('.snodo/');
}

/**
 * The built-in, non-removable guard: a coder may never change snodo's own governance files, so any path
 * under `.snodo/` in the diff (added, modified, deleted, or renamed into or out of it) fails as a blocker.
 * The runner always evaluates it in the post-execute phase, whatever the protocol declares.
 */
export const snodoMutationGuard: Predicate = (context) => {
  const touched: string[] = [];
  const findings: GateFinding[] = [];
  for (const file of context.diff.files) {
    const paths = [file.path, file.previousPath].filter((path): path is string => path !== undefined);
    if (!paths.some(isSnodoPath)) continue;
    const change = file.previousPath ? `${file.previousPath} → ${file.path}` : file.path;
    touched.push(change);
    findings.push({ message: `${change} touches .snodo/, which a coder may not change`, path: file.path });
  }
  if (touched.length === 0) {
    return { passed: true, justification: 'No change under .snodo/.' };
  }
  return {
    passed: false,
    justification:
      `The change touches snodo's governance files (${touched.join(', ')}); a coder may not modify .snodo/. ` +
      'Edit .snodo/protocol.yml yourself in the main checkout if the rules need to change.',
    findings,
    evidence: { snodoPaths: touched },
  };
};
