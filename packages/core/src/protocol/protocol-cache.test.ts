import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProtocol } from './load-protocol.js';
import { clearProtocolMemoryCache } from './protocol-cache.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { renderProtocolTemplate } from './protocol-templates.js';

// A protocol that loaded is kept by content hash so the next process skips YAML and the schema. What a
// user could notice: a changed protocol is always read afresh, errors are shown every time, warnings still
// show on a hit, and a broken or unwritable cache changes nothing. `clearProtocolMemoryCache` stands for
// "the next snodo process": it only has the files.

let directory: string;
let cache: string;
let protocolPath: string;
beforeEach(() => {
  clearProtocolMemoryCache();
  directory = mkdtempSync(join(tmpdir(), 'snodo-protocol-cache-'));
  cache = join(directory, 'home', 'cache', 'protocols', 'project');
  protocolPath = join(directory, 'protocol.yml');
  writeFileSync(protocolPath, renderProtocolTemplate('solo'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function entries(): string[] {
  try {
    return readdirSync(cache).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

/** Rewrites the one cache entry's protocol name: a later load that shows it read the cache, not the file. */
function markEntry(name: string): void {
  const [entry] = entries();
  if (entry === undefined) throw new Error('no cache entry');
  const path = join(cache, entry);
  const cached = JSON.parse(readFileSync(path, 'utf8')) as { protocol: { name: string } };
  cached.protocol.name = name;
  writeFileSync(path, JSON.stringify(cached));
}

describe('the protocol cache', () => {
  it('keeps a protocol that loaded, private to the user, and the next process reads it', async () => {
    const first = await loadProtocol(protocolPath, { cacheDirectory: cache });
    expect(entries()).toHaveLength(1);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, entries()[0] as string)).mode & 0o777).toBe(0o600);

    clearProtocolMemoryCache();
    const again = await loadProtocol(protocolPath, { cacheDirectory: cache });
    expect(again).toStrictEqual(first);
    markEntry('read from the cache');
    clearProtocolMemoryCache();
    expect((await loadProtocol(protocolPath, { cacheDirectory: cache })).protocol.name).toBe(
      'read from the cache',
    );
  });

  it('reads a changed protocol afresh: one byte is a new key', async () => {
    await loadProtocol(protocolPath, { cacheDirectory: cache });
    markEntry('stale');
    writeFileSync(protocolPath, `${readFileSync(protocolPath, 'utf8')}\n`);
    clearProtocolMemoryCache();
    const loaded = await loadProtocol(protocolPath, { cacheDirectory: cache });
    expect(loaded.protocol.name).not.toBe('stale');
    expect(entries()).toHaveLength(2);
  });

  it('keys on the options too: a coder no longer registered fails even though the text loaded before', async () => {
    const text = readFileSync(protocolPath, 'utf8');
    writeFileSync(protocolPath, text.replace('    # coder: <id>', '    coder: opencode'));
    await loadProtocol(protocolPath, { cacheDirectory: cache, registeredCoders: ['opencode'] });
    const error = await loadProtocol(protocolPath, {
      cacheDirectory: cache,
      registeredCoders: ['other'],
    }).catch((caught: unknown) => caught);
    expect(ProtocolInvalidError.isInstance(error)).toBe(true);
  });

  it('never keeps a protocol that does not load: its errors come every time', async () => {
    writeFileSync(protocolPath, 'protocol_id: x\n');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await loadProtocol(protocolPath, { cacheDirectory: cache }).catch(
        (caught: unknown) => caught,
      );
      expect(ProtocolInvalidError.isInstance(error)).toBe(true);
      expect((error as ProtocolInvalidError).issues.length).toBeGreaterThan(0);
    }
    expect(entries()).toEqual([]);
  });

  it('shows the warnings on a hit as on the first load', async () => {
    writeFileSync(protocolPath, `${readFileSync(protocolPath, 'utf8')}\nnot_a_key: 1\n`);
    const first = await loadProtocol(protocolPath, { cacheDirectory: cache });
    expect(first.warnings.map((warning) => warning.message).join('\n')).toContain('not_a_key');
    clearProtocolMemoryCache();
    expect((await loadProtocol(protocolPath, { cacheDirectory: cache })).warnings).toStrictEqual(
      first.warnings,
    );
  });

  it('parses again over an entry that is not JSON or not an entry, and writes a good one', async () => {
    const expected = await loadProtocol(protocolPath, { cacheDirectory: cache });
    const path = join(cache, entries()[0] as string);
    for (const broken of ['{"protocol":', '{"protocol":null,"warnings":[]}', '[]', '']) {
      writeFileSync(path, broken);
      clearProtocolMemoryCache();
      expect(await loadProtocol(protocolPath, { cacheDirectory: cache })).toStrictEqual(expected);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toStrictEqual(JSON.parse(JSON.stringify(expected)));
    }
  });

  it('loads as before where the cache cannot be written (its directory is a file)', async () => {
    const blocked = join(directory, 'blocked');
    writeFileSync(blocked, 'not a directory');
    const loaded = await loadProtocol(protocolPath, { cacheDirectory: join(blocked, 'protocols') });
    expect(loaded.protocol.initial_mode).toBe('producer');
    expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps at most 32 entries, dropping the oldest', async () => {
    const text = readFileSync(protocolPath, 'utf8');
    for (let version = 0; version < 35; version += 1) {
      writeFileSync(protocolPath, `${text}\n# edit ${version}\n`);
      await loadProtocol(protocolPath, { cacheDirectory: cache });
    }
    expect(entries()).toHaveLength(32);
    expect(readdirSync(cache).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
