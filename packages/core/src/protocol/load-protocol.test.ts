import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProtocolNotFoundError } from '../errors.js';
import { loadProtocol } from './load-protocol.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { renderProtocolTemplate } from './protocol-templates.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-protocol-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('loadProtocol', () => {
  it('reads a protocol file written from a template', async () => {
    const path = join(directory, 'protocol.yml');
    writeFileSync(path, renderProtocolTemplate('solo'));
    const { protocol } = await loadProtocol(path);
    expect(protocol.initial_mode).toBe('producer');
  });

  it('tells the user to run snodo init when the file does not exist', async () => {
    const path = join(directory, '.snodo', 'protocol.yml');
    const error = await loadProtocol(path).catch((caught: unknown) => caught);
    expect(ProtocolNotFoundError.isInstance(error)).toBe(true);
    expect((error as ProtocolNotFoundError).code).toBe('PROTOCOL_NOT_FOUND');
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('snodo init');
  });

  it('names issues with the display name the caller gives', async () => {
    const path = join(directory, 'protocol.yml');
    writeFileSync(path, 'protocol_id: x\n');
    const error = await loadProtocol(path, { fileName: '.snodo/protocol.yml' }).catch(
      (caught: unknown) => caught,
    );
    expect(ProtocolInvalidError.isInstance(error)).toBe(true);
    const issues = (error as ProtocolInvalidError).issues;
    expect(issues.every((issue) => issue.file === '.snodo/protocol.yml')).toBe(true);
    expect(issues.map((issue) => issue.message)).toEqual([
      'missing required key `name`',
      'missing required key `modes`',
      'missing required key `initial_mode`',
      'WF4: a protocol needs at least one validator for its policy to approve a task',
    ]);
  });

  it('reports a directory in place of the file as invalid, not missing', async () => {
    const path = join(directory, 'protocol.yml');
    mkdirSync(path);
    const error = await loadProtocol(path).catch((caught: unknown) => caught);
    expect(ProtocolInvalidError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('is a directory');
  });
});
