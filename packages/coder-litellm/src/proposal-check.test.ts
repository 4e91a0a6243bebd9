import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnodoError } from '@snodo/coder-sdk';
import { ProposalPathRefusedError } from '@snodo/coder-sdk';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLitellmCoder } from './litellm-adapter.js';
import { checkProposals } from './proposal-check.js';
import { DIALECT_CASES } from './testing/dialect-cases.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

let workspace: TemporaryWorkspace;
let outside: string;
let fake: FakeLlm | undefined;
beforeEach(() => {
  workspace = createTemporaryWorkspace({ 'src/app.ts': 'export {};\n', 'README.md': '# demo\n' });
  outside = join(workspace.directory, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'not yours\n');
  mkdirSync(join(workspace.root, '.snodo'));
  writeFileSync(join(workspace.root, '.snodo/protocol.yml'), 'protocol_id: demo\n');
  symlinkSync(outside, join(workspace.root, 'outside-link'));
  symlinkSync(join(outside, 'secret.txt'), join(workspace.root, 'linked-file.txt'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  workspace.cleanup();
});

/** The hostile proposals of the issue, and what the refusal must say. */
const HOSTILE: readonly (readonly [path: string, reason: string])[] = [
  ['../x', "'..' segment"],
  ['src/../../x', "'..' segment"],
  ['/etc/x', 'absolute'],
  ['outside-link/x', 'outside the worktree through a symbolic link'],
  ['linked-file.txt', 'symbolic link'],
  ['.snodo/protocol.yml', 'under .snodo/'],
  ['.git/hooks/pre-commit', 'under .git/'],
  ['.GIT/config', 'under .GIT/'],
  ['src\\evil.ts', 'backslash'],
  ['C:/evil.ts', 'absolute'],
  ['README.md/x', 'README.md is a file'],
  ['src', 'is a directory'],
  ['', 'empty'],
];

describe('checkProposals', () => {
  it.each(HOSTILE)('refuses %j (%s)', (path, reason) => {
    let caught: unknown;
    try {
      checkProposals(workspace.root, [{ path, action: 'write', content: 'x' }], 'LLM coder');
    } catch (error) {
      caught = error;
    }
    expect(ProposalPathRefusedError.isInstance(caught)).toBe(true);
    expect((caught as SnodoError).code).toBe('PROPOSAL_PATH_REFUSED');
    expect((caught as ProposalPathRefusedError).path).toBe(path);
    expect((caught as Error).message).toContain(`'${path}'`);
    expect((caught as Error).message).toContain(reason);
  });

  it('carries the marker core checks, so core halts the job as proposal_refused', () => {
    const error = new ProposalPathRefusedError({ path: '../x', reason: 'r', displayName: 'LLM coder' });
    expect(
      (error as unknown as Record<symbol, unknown>)[Symbol.for('snodo.error.PROPOSAL_PATH_REFUSED')],
    ).toBe(true);
  });

  it('accepts ordinary paths, normalising them, including new directories and symlinks that stay inside', () => {
    symlinkSync(join(workspace.root, 'src'), join(workspace.root, 'source-link'));
    expect(
      checkProposals(
        workspace.root,
        [
          { path: './src//app.ts', action: 'write', content: 'export const a = 1;\n' },
          { path: 'docs/new/guide.md', action: 'write', content: '# guide\n' },
          { path: 'source-link/b.ts', action: 'write', content: '' },
          { path: 'README.md', action: 'delete' },
          { path: '.github/workflows/ci.yml', action: 'write', content: 'on: push\n' },
        ],
        'LLM coder',
      ),
    ).toEqual([
      { path: 'src/app.ts', action: 'write', content: 'export const a = 1;\n' },
      { path: 'docs/new/guide.md', action: 'write', content: '# guide\n' },
      { path: 'source-link/b.ts', action: 'write', content: '' },
      { path: 'README.md', action: 'delete' },
      { path: '.github/workflows/ci.yml', action: 'write', content: 'on: push\n' },
    ]);
  });
});

describe.each(DIALECT_CASES)('a hostile submission from the model over $name', (dialect) => {
  it.each(HOSTILE.filter(([path]) => path !== ''))(
    'is refused inside the coder with %j named, and nothing is written',
    async (path) => {
      fake = await startFakeLlm({
        script: [
          {
            writeFiles: [
              { path: 'src/fine.ts', content: 'export const fine = true;\n' },
              { path, content: 'pwned\n' },
            ],
          },
        ],
      });
      const coder = createLitellmCoder({ providers: dialect.providers(fake), fetch: dialect.fetch?.(fake) });
      const before = workspace.snapshot();
      const { request } = workspace.request({ model: dialect.model, env: dialect.env });
      const error = await coder.doRun(request).catch((caught: unknown) => caught);
      expect(fake.problems).toEqual([]);
      expect(ProposalPathRefusedError.isInstance(error)).toBe(true);
      expect((error as ProposalPathRefusedError).path).toBe(path);
      expect((error as Error).message).toContain(`'${path}'`);
      expect((error as Error).message).toContain('Nothing from this proposal was written');
      expect(workspace.snapshot()).toEqual(before);
    },
  );
});
