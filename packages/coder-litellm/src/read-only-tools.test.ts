import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadOnlyTools, LIST_FILES_LIMIT, READ_FILE_CHARACTER_LIMIT } from './read-only-tools.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

let workspace: TemporaryWorkspace;
let calls: string[];
let tools: ReturnType<typeof createReadOnlyTools>;
beforeEach(() => {
  workspace = createTemporaryWorkspace({
    'src/app.ts': 'line 1\nline 2\nline 3\n',
    'src/util/strings.ts': 'export {};\n',
    'README.md': '# demo\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
  });
  mkdirSync(join(workspace.root, '.git'));
  writeFileSync(join(workspace.root, '.git/config'), '[core]\n');
  mkdirSync(join(workspace.directory, 'outside'));
  writeFileSync(join(workspace.directory, 'outside/secret.txt'), 'TOP SECRET\n');
  calls = [];
  tools = createReadOnlyTools(workspace.root, (message) => calls.push(message));
});
afterEach(() => workspace.cleanup());

/** Runs a tool as the AI SDK would; a thrown error becomes the model's tool error. */
async function call(tool: Tool, input: unknown): Promise<string> {
  try {
    return (await tool.execute?.(input as never, { toolCallId: 't', messages: [] })) as string;
  } catch (error) {
    return `ERROR: ${(error as Error).message}`;
  }
}

describe('read_file', () => {
  it('returns a file exactly and reports the call as progress', async () => {
    expect(await call(tools.read_file, { path: 'src/app.ts' })).toBe('line 1\nline 2\nline 3\n');
    expect(calls).toEqual(['read_file src/app.ts']);
  });

  it.each([
    ['../outside/secret.txt', "'..' segment"],
    [`${'/'}etc/passwd`, 'absolute'],
    ['.git/config', 'under .git/'],
    ['src', 'is a directory'],
    ['missing.ts', 'does not exist'],
  ])('refuses %j (%s)', async (path, reason) => {
    const answer = await call(tools.read_file, { path });
    expect(answer).toMatch(/^ERROR: /);
    expect(answer).toContain(reason);
  });

  it('refuses a symbolic link leading outside the repository, file or directory', async () => {
    symlinkSync(join(workspace.directory, 'outside/secret.txt'), join(workspace.root, 'innocent.txt'));
    symlinkSync(join(workspace.directory, 'outside'), join(workspace.root, 'docs'));
    for (const path of ['innocent.txt', 'docs/secret.txt']) {
      const answer = await call(tools.read_file, { path });
      expect(answer).toContain('leads outside the repository through a symbolic link');
      expect(answer).not.toContain('TOP SECRET');
    }
  });

  it('refuses a symbolic link into .git, and follows one that stays inside', async () => {
    symlinkSync(join(workspace.root, '.git/config'), join(workspace.root, 'git-config'));
    symlinkSync(join(workspace.root, 'src/app.ts'), join(workspace.root, 'app-link.ts'));
    expect(await call(tools.read_file, { path: 'git-config' })).toContain('.git/');
    expect(await call(tools.read_file, { path: 'app-link.ts' })).toBe('line 1\nline 2\nline 3\n');
  });

  it('does not show binary files', async () => {
    writeFileSync(join(workspace.root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(await call(tools.read_file, { path: 'logo.png' })).toContain('binary file (7 bytes)');
  });

  it('cuts a long file at a line boundary and says how to read the rest', async () => {
    const line = `${'x'.repeat(99)}\n`;
    workspace.write('big.txt', line.repeat(Math.ceil((READ_FILE_CHARACTER_LIMIT * 1.5) / line.length)));
    const answer = await call(tools.read_file, { path: 'big.txt' });
    expect(answer.length).toBeLessThan(READ_FILE_CHARACTER_LIMIT + 200);
    expect(answer).toContain('the file continues after line 1000; read the rest with read_file_lines');
  });
});

describe('read_file_lines', () => {
  it('returns the requested 1-based inclusive range with its position', async () => {
    expect(await call(tools.read_file_lines, { path: 'src/app.ts', start_line: 2, end_line: 3 })).toBe(
      '[lines 2-3 of 4]\nline 2\nline 3',
    );
  });

  it('refuses a range past the end or backwards, and paths outside', async () => {
    expect(await call(tools.read_file_lines, { path: 'src/app.ts', start_line: 9, end_line: 10 })).toContain(
      'has only 4 lines',
    );
    expect(await call(tools.read_file_lines, { path: 'src/app.ts', start_line: 3, end_line: 1 })).toContain(
      'end_line is before start_line',
    );
    expect(
      await call(tools.read_file_lines, { path: '../outside/secret.txt', start_line: 1, end_line: 1 }),
    ).not.toContain('TOP SECRET');
  });
});

describe('list_files', () => {
  it('lists recursively in name order, hides .git, shows node_modules without descending', async () => {
    expect((await call(tools.list_files, {})).split('\n')).toEqual([
      'README.md',
      'node_modules/',
      'src/',
      'src/app.ts',
      'src/util/',
      'src/util/strings.ts',
    ]);
    expect(await call(tools.list_files, { directory: 'src/util' })).toBe('src/util/strings.ts');
  });

  it('does not follow a symbolic link out of the repository', async () => {
    symlinkSync(join(workspace.directory, 'outside'), join(workspace.root, 'escape'));
    const listing = await call(tools.list_files, {});
    expect(listing).toContain('escape');
    expect(listing).not.toContain('secret.txt');
    expect(await call(tools.list_files, { directory: 'escape' })).toContain('leads outside the repository');
  });

  it(`stops at ${LIST_FILES_LIMIT} entries and says so`, async () => {
    for (let index = 0; index < LIST_FILES_LIMIT + 5; index += 1) {
      writeFileSync(join(workspace.root, `file-${String(index).padStart(4, '0')}.txt`), '');
    }
    const lines = (await call(tools.list_files, {})).split('\n');
    expect(lines).toHaveLength(LIST_FILES_LIMIT + 1);
    expect(lines.at(-1)).toContain('more entries not shown');
  });
});
