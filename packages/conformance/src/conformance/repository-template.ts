import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './git-in-sandbox.js';

/** The files of the start commit every run begins from. */
export const TEMPLATE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Conformance fixture\n',
  'src/app.txt': 'first line\n',
  'src/obsolete.txt': 'this file is deleted by the one-commit scenario\n',
  '.snodo/protocol.yml': 'protocol_id: conformance\nmodes: []\n',
  '.gitignore': 'node_modules/\n',
};

/** A repository with one commit, copied for every run. */
export interface RepositoryTemplate {
  /** The main checkout to copy (its `.git` included). */
  readonly directory: string;
  /** The sha of its one commit, the start commit of every run. */
  readonly startCommit: string;
}

let template: RepositoryTemplate | undefined;
let users = 0;

/**
 * Marks the template as in use until the returned function is called; the last release removes it.
 * `runCoderConformance` and `describeCoderConformance` hold it across all obligations, and every run holds
 * it while it exists, so one suite creates the template once and leaves nothing behind. (A process `exit`
 * hook would not do: test runners stop their workers with a signal.)
 */
export function useRepositoryTemplate(): () => void {
  users += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users === 0 && template !== undefined) {
      rmSync(path.dirname(template.directory), { recursive: true, force: true });
      template = undefined;
    }
  };
}

/**
 * The template, created on first use. Copying it with `cpSync` is much cheaper than `git init` and a
 * commit per run, and every run still gets its own real repository. Callers hold it with
 * `useRepositoryTemplate`.
 */
export function repositoryTemplate(): RepositoryTemplate {
  if (template !== undefined) return template;
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-conformance-template-'));
  const directory = path.join(root, 'main');
  try {
    mkdirSync(directory);
    git(['init', '-q', '-b', 'main'], directory);
    for (const [relativePath, content] of Object.entries(TEMPLATE_FILES)) {
      mkdirSync(path.dirname(path.join(directory, relativePath)), { recursive: true });
      writeFileSync(path.join(directory, relativePath), content);
    }
    git(['add', '-A'], directory);
    git(['commit', '-q', '-m', 'initial'], directory);
    // As core does: snodo's job directories in the main checkout are never part of the repository.
    writeFileSync(path.join(directory, '.git', 'info', 'exclude'), '/.snodo/jobs/\n');
    template = { directory, startCommit: git(['rev-parse', 'HEAD'], directory).trim() };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return template;
}
