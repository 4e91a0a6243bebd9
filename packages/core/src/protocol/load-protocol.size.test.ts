import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProtocol } from './load-protocol.js';
import { parseProtocol } from './parse-protocol.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { renderProtocolTemplate } from './protocol-templates.js';
import { MAX_YAML_SOURCE_BYTES } from './yaml-source.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-protocol-size-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

async function refusal(load: Promise<unknown>): Promise<ProtocolInvalidError> {
  const error = await load.catch((caught: unknown) => caught);
  if (ProtocolInvalidError.isInstance(error)) return error;
  throw new Error(`expected PROTOCOL_INVALID, got ${String(error)}`);
}

/** A valid protocol padded with a comment to exactly `bytes` bytes. */
function paddedProtocol(bytes: number): string {
  const text = `${renderProtocolTemplate('solo')}# `;
  return `${text}${'x'.repeat(bytes - Buffer.byteLength(text) - 1)}\n`;
}

describe('loadProtocol and the size limit', () => {
  it('refuses a 20 MB protocol from its size, naming the file, its size, the limit and the fix', async () => {
    // Regression (issue 14): a 20 MB protocol was read and parsed for 10 s before being refused.
    const path = join(directory, 'protocol.yml');
    writeFileSync(path, '');
    truncateSync(path, 20 * 1024 * 1024);
    const error = await refusal(loadProtocol(path, { fileName: '.snodo/protocol.yml' }));
    expect(error.code).toBe('PROTOCOL_INVALID');
    expect(error.issues).toEqual([expect.objectContaining({ file: '.snodo/protocol.yml', rule: 'size' })]);
    expect(error.message).toContain('.snodo/protocol.yml');
    expect(error.message).toContain('the file is 20480 KiB, above the 1024 KiB snodo reads');
    expect(error.message).toContain('check that this is the file you meant');
  });

  it('loads a protocol of exactly the limit and refuses one byte more', async () => {
    const path = join(directory, 'protocol.yml');
    writeFileSync(path, paddedProtocol(MAX_YAML_SOURCE_BYTES));
    expect((await loadProtocol(path)).protocol.initial_mode).toBe('producer');
    writeFileSync(path, paddedProtocol(MAX_YAML_SOURCE_BYTES + 1));
    const error = await refusal(loadProtocol(path));
    expect(error.message).toContain('the file is 1025 KiB');
  });

  it('refuses a protocol that is a device without reading it', async () => {
    const path = join(directory, 'protocol.yml');
    symlinkSync('/dev/zero', path);
    const error = await refusal(loadProtocol(path));
    expect(error.issues[0]?.message).toBe(
      'it is not a regular file (a device, a pipe or a socket), so it was not read',
    );
  });

  it('refuses protocol text above the limit before parsing it', () => {
    const text = `protocol_id: big\nname: [${'1, '.repeat(MAX_YAML_SOURCE_BYTES / 2)}]\n`;
    let error: unknown;
    try {
      parseProtocol(text, { fileName: 'generated.yml' });
    } catch (caught) {
      error = caught;
    }
    expect(ProtocolInvalidError.isInstance(error)).toBe(true);
    expect((error as ProtocolInvalidError).issues.map((issue) => issue.rule)).toEqual(['size']);
  });
});
