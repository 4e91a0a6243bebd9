import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigInvalidError } from './config-invalid-error.js';
import { loadConfigFile } from './load-config.js';

let directory: string;
let path: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-config-load-'));
  path = join(directory, 'config.yml');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function write(text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
}

function invalid(): ConfigInvalidError {
  try {
    loadConfigFile(path);
  } catch (error) {
    if (ConfigInvalidError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

describe('loadConfigFile', () => {
  it('reports malformed YAML with file:line:column and never falls back to defaults', () => {
    write('model: mock/pass\nllm:\n  validator:\n    model: [oops\n');
    const error = invalid();
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues[0]).toMatchObject({ file: path, rule: 'yaml', severity: 'error' });
    expect(error.issues[0]!.line).toBeGreaterThanOrEqual(4);
    expect(error.message).toContain(
      `${path}:${error.issues[0]!.line}:${error.issues[0]!.column}: YAML syntax error`,
    );
  });

  it('reports every schema error at its value', () => {
    write(
      'model: mock/pass\nllm:\n  validator:\n    max_tokens: lots\nproviders:\n  local:\n    base_url: nowhere\n',
    );
    const error = invalid();
    expect(error.issues.map((issue) => [issue.line, issue.column, issue.path])).toEqual([
      [4, 17, 'llm.validator.max_tokens'],
      [7, 15, 'providers.local.base_url'],
    ]);
    expect(error.message).toContain(
      `${path}:4:17: \`llm.validator.max_tokens\`: expected a number, got "lots"`,
    );
  });

  it('loads an empty file as the empty config', () => {
    write('# nothing yet\n');
    expect(loadConfigFile(path).config).toEqual({});
  });

  it('rejects a file that is not a mapping', () => {
    write('- model\n');
    expect(invalid().message).toContain('must be a YAML mapping');
  });

  it('warns about unknown keys with a suggestion, and loads the rest', () => {
    write('modle: x/y\ncoders:\n  some-cli:\n    binray: /bin/some-cli\n    runtime: docker\n');
    const { config, warnings } = loadConfigFile(path);
    // A coder's own settings (`runtime`) pass through to it without a warning; a likely typo is flagged.
    expect(config).toEqual({ coders: { 'some-cli': { binray: '/bin/some-cli', runtime: 'docker' } } });
    expect(warnings.map((warning) => [warning.line, warning.column, warning.message])).toEqual([
      [1, 1, 'unknown key `modle` (did you mean `model`?); snodo ignores it'],
      [4, 5, 'unknown key `binray` (did you mean `binary`?); snodo ignores it'],
    ]);
  });

  it("loads the Python original's config, explaining the keys it no longer reads", () => {
    write(
      [
        'model: provider-a/model-1',
        'default_model: provider-a/model-2',
        'llm:',
        '  num_retries: 3',
        '  coder: {max_tokens: 16000, max_tool_turns: 6}',
        '  validator: {max_tokens: 1500, model: provider-a/judge}',
        '  classifier: {model: provider-a/small, max_tokens: 500, temperature: 0}',
        'engine: {max_subtask_depth: 3}',
        'providers:',
        '  edge:',
        '    api_key: edge-0123456789abcdefghij',
        '    api_key_env: EDGE_API_KEY',
        '    account_id: abc',
        '    models_endpoint: https://example.invalid/models',
        'mcp: {port: 55441}',
        '',
      ].join('\n'),
    );
    const { config, warnings } = loadConfigFile(path);
    expect(config.llm?.classifier).toEqual({ model: 'provider-a/small', max_tokens: 500, temperature: 0 });
    expect(config.providers?.edge).toEqual({
      api_key: 'edge-0123456789abcdefghij',
      api_key_env: 'EDGE_API_KEY',
    });
    expect(warnings.map((warning) => warning.rule)).toEqual(Array(6).fill('legacy'));
    expect(warnings[0]?.message).toContain('use `model`');
  });
});

describe('loadConfigFile and the size limit', () => {
  it('refuses a config above 1 MiB from its size, naming the file, its size and the limit', () => {
    write('');
    truncateSync(path, 2 * 1024 * 1024);
    const error = invalid();
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues).toEqual([expect.objectContaining({ file: path, rule: 'size' })]);
    expect(error.message).toContain(path);
    expect(error.message).toContain('the file is 2048 KiB, above the 1024 KiB snodo reads');
  });

  it('loads a config of exactly 1 MiB', () => {
    const text = 'model: anthropic/claude-sonnet-4-5\n# ';
    write(`${text}${'x'.repeat(1024 * 1024 - text.length - 1)}\n`);
    expect(loadConfigFile(path).config.model).toBe('anthropic/claude-sonnet-4-5');
  });
});
