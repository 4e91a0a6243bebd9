import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CoderV1Event, CoderV1Request } from '@snodo/coder-sdk';

// Test support only: a temporary worktree-like directory and a coder request aimed at it.

export interface TemporaryWorkspace {
  /** The parent temporary directory (holds `workspace/` and anything a test puts beside it). */
  readonly directory: string;
  /** The workspace the coder runs in. */
  readonly root: string;
  write(relativePath: string, content: string): void;
  /** Every file under the root (symlinks as `-> target`), for "nothing was written" checks. */
  snapshot(): Record<string, string>;
  /** A request for one attempt, with `overrides` applied; `events` collects what the coder emits. */
  request(overrides?: Partial<CoderV1Request>): { request: CoderV1Request; events: CoderV1Event[] };
  cleanup(): void;
}

export function createTemporaryWorkspace(files: Readonly<Record<string, string>> = {}): TemporaryWorkspace {
  const directory = mkdtempSync(join(tmpdir(), 'snodo-coder-litellm-'));
  const root = join(directory, 'workspace');
  mkdirSync(root);
  const write = (relativePath: string, content: string) => {
    mkdirSync(dirname(join(root, relativePath)), { recursive: true });
    writeFileSync(join(root, relativePath), content);
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return {
    directory,
    root,
    write,
    snapshot() {
      const result: Record<string, string> = {};
      const walk = (absolute: string, relative: string) => {
        for (const entry of readdirSync(absolute, { withFileTypes: true })) {
          const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
          if (entry.isSymbolicLink()) result[path] = '-> link';
          else if (entry.isDirectory()) walk(join(absolute, entry.name), path);
          else result[path] = readFileSync(join(absolute, entry.name), 'utf8');
        }
      };
      walk(root, '');
      return result;
    },
    request(overrides = {}) {
      const events: CoderV1Event[] = [];
      const request: CoderV1Request = {
        jobId: 'j_test0001',
        attempt: 1,
        task: 'Change the greeting',
        prompt: '# Task\n\nChange the greeting in src/greeting.ts to "hello, world".\n',
        workspace: root,
        model: undefined,
        env: {},
        timeoutMs: 60_000,
        abortSignal: new AbortController().signal,
        instructions: '',
        instructionsPath: join(directory, 'instructions.md'),
        transcriptPath: join(directory, 'transcript.log'),
        coderConfig: {},
        emit: (event) => events.push(event),
        ...overrides,
      };
      return { request, events };
    },
    cleanup() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
