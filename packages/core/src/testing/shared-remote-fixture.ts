import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { useIsolatedGitConfiguration } from '../git/test-repository.js';

// Test support only: a bare repository as the shared remote of several workers, each with its own clone
// and its own $SNODO_HOME, all with real git.

/** One worker's clone of the shared remote. */
export interface WorkerClone {
  readonly workerId: string;
  readonly root: string;
  readonly snodoHome: string;
  /** Runs git in the clone; returns trimmed stdout. */
  git(args: readonly string[]): string;
  /**
   * Makes a task commit on top of `base` (default: the remote's main as fetched now) writing `files`, and
   * pushes it to `refs/snodo/jobs/<jobId>`, as a worker does before asking for its landing.
   */
  task(
    jobId: string,
    files: Readonly<Record<string, string>>,
    base?: string,
  ): { taskCommit: string; taskBase: string };
}

/** The shared remote and its workers. */
export interface SharedRemote {
  readonly directory: string;
  readonly bare: string;
  /** Runs git in the bare remote. */
  remoteGit(args: readonly string[]): string;
  /** Runs git in the bare remote with `input` on stdin. */
  remoteGitInput(args: readonly string[], input: string): string;
  /** Commits `files` on the remote's main from a scratch clone (a human pushing); returns the commit. */
  push(message: string, files: Readonly<Record<string, string>>): string;
  /** The same with a whole commit message (trailers included). */
  pushMessage(message: string, files: Readonly<Record<string, string>>): string;
  clone(workerId: string): WorkerClone;
  cleanup(): void;
}

function runGit(cwd: string, args: readonly string[], input?: string): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    encoding: 'utf8',
    ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] as const } : { input }),
  }).trimEnd();
}

function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A bare remote with one commit on `main` (`README.md`). */
export function createSharedRemote(): SharedRemote {
  const gitConfiguration = useIsolatedGitConfiguration();
  const directory = mkdtempSync(join(tmpdir(), 'snodo-shared-remote-'));
  const bare = join(directory, 'remote.git');
  runGit(directory, ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const scratch = join(directory, 'human');
  runGit(directory, ['clone', '--quiet', bare, scratch]);
  const push = (message: string, files: Readonly<Record<string, string>>): string => {
    runGit(scratch, ['fetch', '--quiet', 'origin']);
    runGit(scratch, ['checkout', '--quiet', '-B', 'main', ...(hasMain() ? ['origin/main'] : [])]);
    writeFiles(scratch, files);
    runGit(scratch, ['add', '--all']);
    runGit(scratch, ['commit', '--quiet', '--cleanup=verbatim', '-F', '-'], `${message}\n`);
    runGit(scratch, ['push', '--quiet', 'origin', 'HEAD:refs/heads/main']);
    return runGit(scratch, ['rev-parse', 'HEAD']);
  };
  const hasMain = (): boolean => {
    try {
      runGit(scratch, ['rev-parse', '--verify', '--quiet', 'origin/main']);
      return true;
    } catch {
      return false;
    }
  };
  push('initial', { 'README.md': 'hello\n' });
  return {
    directory,
    bare,
    remoteGit: (args) => runGit(bare, args),
    remoteGitInput: (args, input) => runGit(bare, args, input),
    push,
    pushMessage: push,
    clone: (workerId) => {
      const root = join(directory, `clone-${workerId}`);
      const snodoHome = join(directory, `home-${workerId}`);
      mkdirSync(snodoHome, { recursive: true, mode: 0o700 });
      runGit(directory, ['clone', '--quiet', bare, root]);
      const git = (args: readonly string[]): string => runGit(root, args);
      return {
        workerId,
        root,
        snodoHome,
        git,
        task: (jobId, files, base) => {
          git(['fetch', '--quiet', 'origin']);
          const taskBase = base ?? git(['rev-parse', 'origin/main']);
          git(['checkout', '--quiet', '--detach', taskBase]);
          writeFiles(root, files);
          git(['add', '--all', '--', ...Object.keys(files)]);
          git(['commit', '--quiet', '-m', `task ${jobId}`]);
          const taskCommit = git(['rev-parse', 'HEAD']);
          git(['push', '--quiet', 'origin', `HEAD:refs/snodo/jobs/${jobId}`]);
          return { taskCommit, taskBase };
        },
      };
    },
    cleanup: () => {
      gitConfiguration.restore();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
