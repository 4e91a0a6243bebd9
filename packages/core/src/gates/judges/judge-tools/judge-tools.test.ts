import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../../../git/test-repository.js';
import { READ_ONLY_VALIDATOR_TOOLS } from '../../../protocol/protocol-validator-schema.js';
import type { GateJudgeTool } from '../gate-judge-function.js';
import { buildJudgeTools } from './build-judge-tools.js';
import type { JudgeToolCall } from './judge-tool-call.js';
import { judgeToolsForGrant } from './judge-tool-grant.js';
import type { JudgeToolSource } from './judge-tool-source.js';

let isolation: ReturnType<typeof useIsolatedGitConfiguration>;
let repository: TestRepository;
let source: JudgeToolSource;

beforeAll(() => {
  isolation = useIsolatedGitConfiguration();
  repository = createTestRepository();
  const base = repository.revParse('HEAD');
  writeFileSync(join(repository.temporaryDirectory, 'outside.txt'), 'a secret outside the repository\n');
  repository.write({
    'src/limit.ts':
      'export const LIMIT = 5;\nexport function allowed(count: number) {\n  return count < LIMIT;\n}\n',
    'src/deep/a.test.ts': 'test\n',
    'docs/guide.md': '# Guide\n',
  });
  symlinkSync('../../outside.txt', join(repository.root, 'escape-link'));
  symlinkSync('/etc/passwd', join(repository.root, 'absolute-link'));
  symlinkSync('src/limit.ts', join(repository.root, 'inside-link'));
  const head = repository.commit('add a rate limit', {});
  // Uncommitted: the tools read the judged commit, never the working directory.
  repository.write({ 'src/limit.ts': 'not committed\n', 'untracked.txt': 'left behind\n' });
  source = { directory: repository.root, headCommit: head, baseCommit: base };
});
afterAll(() => {
  repository.cleanup();
  isolation.restore();
});

function tools(calls: JudgeToolCall[] = []): Record<string, GateJudgeTool> {
  const built = buildJudgeTools(['read_file', 'list_files', 'read_diff', 'git_log'], source, calls);
  return Object.fromEntries(built.map((tool) => [tool.name, tool]));
}

describe('judge tools read the judged commit', () => {
  it('read_file shows numbered lines of the committed file, whole or a range', async () => {
    const calls: JudgeToolCall[] = [];
    const read = tools(calls).read_file!;
    const whole = await read.execute({ path: 'src/limit.ts' });
    expect(whole).toContain('src/limit.ts (lines 1-4 of 4)');
    expect(whole).toContain('1: export const LIMIT = 5;');
    expect(whole).not.toContain('not committed');
    expect(await read.execute({ path: './src/limit.ts', start_line: 3, end_line: 3 })).toBe(
      'src/limit.ts (lines 3-3 of 4)\n3:   return count < LIMIT;',
    );
    expect(calls).toEqual([
      { tool: 'read_file', input: '{"path":"src/limit.ts"}', ok: true, bytes: Buffer.byteLength(whole) },
      expect.objectContaining({ tool: 'read_file', ok: true }),
    ]);
  });

  it('read_file follows a symbolic link that stays inside the tree', async () => {
    expect(await tools().read_file!.execute({ path: 'inside-link' })).toContain('1: export const LIMIT = 5;');
  });

  it('list_files lists the tree recursively, filtered by a glob relative to the directory', async () => {
    const list = tools().list_files!;
    const all = await list.execute({});
    expect(all).toContain('src/limit.ts');
    expect(all).toContain('README.md');
    expect(all).not.toContain('untracked.txt');
    expect(await list.execute({ directory: 'src', glob: '**/*.test.ts' })).toBe(
      '1 file(s) under src:\nsrc/deep/a.test.ts',
    );
  });

  it('read_diff shows base..head by default; git_log lists head history', async () => {
    const all = tools();
    const diff = await all.read_diff!.execute({});
    expect(diff).toContain('+export const LIMIT = 5;');
    expect(await all.read_diff!.execute({ path: 'docs' })).toContain('+# Guide');
    const log = await all.git_log!.execute({ max_count: 1 });
    expect(log).toContain(`${source.headCommit} `);
    expect(log).toContain(`add a rate limit (parents: ${source.baseCommit})`);
    // One commit's own change: from its parent (which git_log names) to it.
    expect(await all.read_diff!.execute({ from: source.baseCommit, to: source.headCommit })).toBe(diff);
  });
});

describe('judge tools stay inside the workspace', () => {
  it.each([
    ['../outside.txt', 'outside the workspace'],
    ['src/../../outside.txt', 'outside the workspace'],
    ['/etc/passwd', 'is absolute'],
    ['.git/config', 'names .git'],
    ['src/.GIT/x', 'names .git'],
    ['escape-link', 'symbolic link to "../../outside.txt", which is outside the workspace'],
    ['absolute-link', 'outside the workspace'],
    ['nope.ts', 'does not exist in the commit being judged'],
  ])('read_file refuses %s to the model and records the refusal', async (path, reason) => {
    const calls: JudgeToolCall[] = [];
    const answer = await tools(calls).read_file!.execute({ path });
    expect(answer).toMatch(/^Error: /);
    expect(answer).toContain(reason);
    expect(answer).not.toContain('a secret outside');
    expect(calls).toEqual([
      {
        tool: 'read_file',
        input: JSON.stringify({ path }),
        ok: false,
        error: answer.slice(7),
        bytes: Buffer.byteLength(answer),
      },
    ]);
  });

  it('list_files refuses a directory outside; read_diff refuses names that are not job commits', async () => {
    const all = tools();
    expect(await all.list_files!.execute({ directory: '..' })).toContain('outside the workspace');
    expect(await all.read_diff!.execute({ from: '--output=/tmp/pwned' })).toContain(
      'is not "base", "head" or a commit id',
    );
    expect(await all.read_diff!.execute({ to: 'trunk' })).toContain('is not "base", "head" or a commit id');
    expect(await all.read_diff!.execute({ from: 'ffffffffffff' })).toContain('no commit ffffffffffff');
  });

  it('answers a malformed input as a tool error instead of throwing', async () => {
    const answer = await tools().read_file!.execute({ path: 7, mode: 'w' });
    expect(answer).toMatch(/^Error: bad input for read_file/);
  });
});

describe('the tools: grant', () => {
  it('maps every read-only name the protocol accepts, and refuses any other name', () => {
    for (const name of READ_ONLY_VALIDATOR_TOOLS) expect(judgeToolsForGrant([name]).refused).toEqual([]);
    expect(judgeToolsForGrant(['read_file_lines', 'git_show'])).toEqual({
      tools: ['read_file', 'read_diff', 'git_log'],
      refused: [],
    });
    expect(judgeToolsForGrant(['read_file', 'write_file', 'run_shell'])).toEqual({
      tools: ['read_file'],
      refused: ['write_file', 'run_shell'],
    });
  });
});
