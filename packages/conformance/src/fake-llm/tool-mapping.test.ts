import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeclaredTool } from './conversation-view.js';
import { buildAddFilePatch } from './file-write-commands.js';
import { type FileWriteMapping, mapFileWrites } from './tool-mapping.js';

/** Tool shapes as the real clients declare them (trimmed to the fields that matter). */
function functionTool(name: string, schema: Record<string, unknown>): DeclaredTool {
  return { name, kind: 'function', description: '', schema, providerType: undefined };
}

const claudeWrite = functionTool('Write', {
  type: 'object',
  properties: {
    file_path: {
      type: 'string',
      description: 'The absolute path to the file to write (must be absolute, not relative)',
    },
    content: { type: 'string', description: 'The content to write to the file' },
  },
  required: ['file_path', 'content'],
});
const claudeBash = functionTool('Bash', {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' }, timeout: { type: 'number' } },
  required: ['command'],
});
const openCodeWrite = functionTool('write', {
  type: 'object',
  properties: {
    content: { type: 'string', description: 'The content to write to the file' },
    filePath: {
      type: 'string',
      description: 'The absolute path to the file to write (must be absolute, not relative)',
    },
  },
  required: ['content', 'filePath'],
});
const openCodeBash = functionTool('bash', {
  type: 'object',
  properties: { command: { type: 'string' }, description: { type: 'string' }, timeout: { type: 'number' } },
  required: ['command', 'description'],
});
const geminiWriteFile = functionTool('write_file', {
  type: 'OBJECT',
  properties: {
    file_path: { type: 'STRING', description: 'The path to the file to write to.' },
    content: { type: 'STRING', description: 'The content to write to the file.' },
  },
  required: ['file_path', 'content'],
});
const codexPatchFunction = functionTool('apply_patch', {
  type: 'object',
  properties: { input: { type: 'string', description: 'The entire contents of the apply_patch command' } },
  required: ['input'],
  additionalProperties: false,
});
const codexPatchFreeform: DeclaredTool = {
  name: 'apply_patch',
  kind: 'custom',
  description: 'Use the `apply_patch` tool to edit files.',
  schema: undefined,
  providerType: undefined,
};
const codexShell = functionTool('shell', {
  type: 'object',
  properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' } },
  required: ['command'],
});
const codexExecCommand = functionTool('exec_command', {
  type: 'object',
  properties: { cmd: { type: 'string' }, workdir: { type: 'string' }, yield_time_ms: { type: 'number' } },
  required: ['cmd'],
});
const submitFiles = functionTool('submit_files', {
  type: 'object',
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          content: { type: 'string' },
          action: { type: 'string', enum: ['delete', 'write'] },
        },
        required: ['path', 'content', 'action'],
      },
    },
    summary: { type: 'string' },
  },
  required: ['files', 'summary'],
});
const readTool = functionTool('Read', {
  type: 'object',
  properties: { file_path: { type: 'string' } },
  required: ['file_path'],
});

const temporaryDirectories: string[] = [];
function temporaryDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-llm-mapping-'));
  temporaryDirectories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of temporaryDirectories.splice(0))
    fs.rmSync(directory, { recursive: true, force: true });
});

const file = { path: 'src/hello.txt', content: "it's\nhere\n" };

/** The JSON input of the first tool call of a successful mapping. */
function firstInput(mapping: FileWriteMapping): Record<string, unknown> {
  if (!mapping.ok) throw new Error(mapping.problem);
  const input = mapping.toolCalls[0]?.input;
  if (typeof input !== 'object') throw new Error('expected a JSON tool input');
  return input;
}

describe('mapFileWrites', () => {
  it('maps onto Claude Code Write with the path joined onto the workspace, preferring it over Bash', () => {
    const mapping = mapFileWrites([file], [readTool, claudeBash, claudeWrite], {
      workspaceDir: '/work/repo',
    });
    expect(mapping).toEqual({
      ok: true,
      strategy: 'write-tool',
      toolName: 'Write',
      toolCalls: [
        {
          name: 'Write',
          kind: 'function',
          input: { file_path: '/work/repo/src/hello.txt', content: file.content },
        },
      ],
    });
  });

  it('refuses a relative path for an absolute-path tool when the workspace is unknown, naming the fix', () => {
    const mapping = mapFileWrites([file], [claudeWrite]);
    expect(mapping.ok).toBe(false);
    expect(mapping.ok ? '' : mapping.problem).toMatch(/Write.*absolute file_path.*workspaceDir/);
  });

  it('maps onto OpenCode write (filePath) and keeps absolute script paths as they are', () => {
    const mapping = mapFileWrites([{ path: '/abs/a.txt', content: 'x' }], [openCodeBash, openCodeWrite]);
    expect(mapping.ok && mapping.toolCalls).toEqual([
      { name: 'write', kind: 'function', input: { filePath: '/abs/a.txt', content: 'x' } },
    ]);
  });

  it('maps onto Gemini write_file (OpenAPI upper-case types) with the relative path kept', () => {
    const mapping = mapFileWrites([file], [geminiWriteFile]);
    expect(mapping.ok && mapping.toolCalls).toEqual([
      { name: 'write_file', kind: 'function', input: { file_path: 'src/hello.txt', content: file.content } },
    ]);
  });

  it('maps several files onto one write call each', () => {
    const files = [file, { path: 'b.txt', content: 'b' }];
    const mapping = mapFileWrites(files, [geminiWriteFile]);
    expect(mapping.ok && mapping.toolCalls.map((call) => call.input)).toEqual([
      { file_path: 'src/hello.txt', content: file.content },
      { file_path: 'b.txt', content: 'b' },
    ]);
  });

  it('maps onto Codex apply_patch as a function tool and as a freeform tool', () => {
    const patch = buildAddFilePatch([file]);
    expect(patch).toBe("*** Begin Patch\n*** Add File: src/hello.txt\n+it's\n+here\n*** End Patch");
    const asFunction = mapFileWrites([file], [codexShell, codexPatchFunction]);
    expect(asFunction.ok && asFunction.toolCalls).toEqual([
      { name: 'apply_patch', kind: 'function', input: { input: patch } },
    ]);
    const asFreeform = mapFileWrites([file], [codexShell, codexPatchFreeform]);
    expect(asFreeform.ok && asFreeform.toolCalls).toEqual([
      { name: 'apply_patch', kind: 'custom', input: patch },
    ]);
  });

  it('maps onto submit_files with the write action and fills other required fields', () => {
    const mapping = mapFileWrites([file], [submitFiles]);
    expect(mapping.ok && mapping.toolCalls).toEqual([
      {
        name: 'submit_files',
        kind: 'function',
        input: {
          files: [{ path: 'src/hello.txt', content: file.content, action: 'write' }],
          summary: 'Write src/hello.txt',
        },
      },
    ]);
  });

  it('maps onto a shell tool taking an argv array, and the command really writes the exact bytes', () => {
    const files = [file, { path: 'deep/er/q.txt', content: 'single \' and "double" $HOME `x`' }];
    const argv = firstInput(mapFileWrites(files, [codexShell])).command as string[];
    expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
    const directory = temporaryDirectory();
    execFileSync(argv[0] ?? 'sh', argv.slice(1), { cwd: directory });
    expect(fs.readFileSync(path.join(directory, 'src/hello.txt'), 'utf8')).toBe(file.content);
    expect(fs.readFileSync(path.join(directory, 'deep/er/q.txt'), 'utf8')).toBe(files[1]?.content);
  });

  it('maps onto string shell tools (Claude Bash, Codex exec_command, OpenCode bash with a required description)', () => {
    expect(typeof firstInput(mapFileWrites([file], [claudeBash])).command).toBe('string');
    const script = String(firstInput(mapFileWrites([file], [codexExecCommand])).cmd);
    const directory = temporaryDirectory();
    execFileSync('sh', ['-c', script], { cwd: directory });
    expect(fs.readFileSync(path.join(directory, 'src/hello.txt'), 'utf8')).toBe(file.content);
    expect(firstInput(mapFileWrites([file], [openCodeBash]))).toMatchObject({
      description: 'Write src/hello.txt',
    });
  });

  it("maps onto Anthropic's provider-defined text editor with its create command", () => {
    const editor: DeclaredTool = {
      name: 'str_replace_based_edit_tool',
      kind: 'provider',
      description: '',
      schema: undefined,
      providerType: 'text_editor_20250728',
    };
    const mapping = mapFileWrites([file], [editor]);
    expect(mapping.ok && mapping.toolCalls).toEqual([
      {
        name: 'str_replace_based_edit_tool',
        kind: 'function',
        input: { command: 'create', path: 'src/hello.txt', file_text: file.content },
      },
    ]);
  });

  it('uses the tool named by via, and explains when it is not declared or cannot write', () => {
    const viaBash = mapFileWrites([file], [claudeWrite, claudeBash], { via: 'Bash' });
    expect(viaBash.ok && viaBash.strategy).toBe('shell');
    const missing = mapFileWrites([file], [claudeBash], { via: 'Write' });
    expect(missing.ok ? '' : missing.problem).toMatch(/via "Write".*declared Bash/);
    const unusable = mapFileWrites([file], [readTool], { via: 'Read' });
    expect(unusable.ok ? '' : unusable.problem).toMatch(/the tool "Read"/);
  });

  it('reports a clear problem when no declared tool can write files', () => {
    const mapping = mapFileWrites([file], [readTool]);
    expect(mapping.ok ? '' : mapping.problem).toMatch(/no declared tool.*declared Read/);
    const none = mapFileWrites([file], []);
    expect(none.ok ? '' : none.problem).toMatch(/declared no tools/);
  });
});
