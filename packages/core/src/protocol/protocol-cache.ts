import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { projectDirectoryName } from '../isolation/project-directory-name.js';
import { SNODO_VERSION } from '../version.js';
import type { LoadedProtocol, ParseProtocolOptions } from './parse-protocol.js';

/**
 * A protocol that loaded, kept under the hash of everything its loading read, so the next command
 * with the same text skips YAML and the schema (~20 ms of a cold process, most of `snodo run`'s
 * protocol cost). Safe because parsing is a pure function of that key: the text, every option that
 * changes the outcome, and snodo's version (a new schema never reads an old answer). Only protocols
 * that loaded are kept; an invalid one is parsed, and its errors shown, every time.
 *
 * Two layers: a few entries in memory (a queue worker or an embedding application opening the project
 * per task), and files in `$SNODO_HOME/cache/protocols/<project>/`, which a sandboxed coder or gate
 * cannot see or write (the same trust as the config and the signing key beside it) and which the job guard
 * watches like the protocol itself, so a coder run without a sandbox that forges an entry halts its job and
 * the entry is put back. A cache that cannot be read or written is the same as no cache: the protocol is
 * parsed.
 */

/** Bumped when the shape of a cached entry changes. */
const CACHE_FORMAT = 1;
const MEMORY_ENTRIES = 8;
/** Files kept on disk; the oldest go when a new protocol text is cached past this. */
const DISK_ENTRIES = 32;

/** By directory and key: a hit in memory means this process read or wrote that directory's entry. */
const memory = new Map<string, string>();

function memoryKey(directory: string | undefined, key: string): string {
  return `${directory ?? ''}\0${key}`;
}

/**
 * Where one repository's protocols that loaded are kept: `$SNODO_HOME/cache/protocols/<project>/`,
 * named like its worktrees folder. Per repository because the job guard watches it: a job in one
 * repository must not see another repository's new entry as tampering.
 */
export function protocolCacheDirectory(snodoHome: string, gitCommonDirectory: string): string {
  return join(snodoHome, 'cache', 'protocols', projectDirectoryName(gitCommonDirectory));
}

/** The hash a protocol's loading depends on: its text, the options that change the result, snodo's version. */
export function protocolCacheKey(text: string, options: ParseProtocolOptions & { fileName: string }): string {
  const inputs = [
    CACHE_FORMAT,
    SNODO_VERSION,
    options.fileName,
    options.strict === true,
    options.registeredCoders === undefined ? null : [...options.registeredCoders].sort(),
    options.knownPredicates === undefined ? null : [...options.knownPredicates].sort(),
    text,
  ];
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

function revive(serialized: string): LoadedProtocol | undefined {
  try {
    const entry = JSON.parse(serialized) as Partial<LoadedProtocol> | null;
    const wellShaped =
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.protocol === 'object' &&
      entry.protocol !== null &&
      Array.isArray(entry.warnings) &&
      typeof entry.declaresMergeStrategy === 'boolean';
    return wellShaped ? (entry as LoadedProtocol) : undefined;
  } catch {
    return undefined;
  }
}

function remember(key: string, serialized: string): void {
  memory.delete(key);
  memory.set(key, serialized);
  for (const oldest of memory.keys()) {
    if (memory.size <= MEMORY_ENTRIES) break;
    memory.delete(oldest);
  }
}

/** The cached result for `key` (a fresh copy each call), or `undefined`. */
export async function readCachedProtocol(
  directory: string | undefined,
  key: string,
): Promise<LoadedProtocol | undefined> {
  const held = memory.get(memoryKey(directory, key));
  if (held !== undefined) return revive(held);
  if (directory === undefined) return undefined;
  let serialized: string;
  try {
    serialized = await readFile(join(directory, `${key}.json`), 'utf8');
  } catch {
    return undefined;
  }
  const loaded = revive(serialized);
  if (loaded !== undefined) remember(memoryKey(directory, key), serialized);
  return loaded;
}

async function pruneOldest(directory: string): Promise<void> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.json'));
  if (names.length <= DISK_ENTRIES) return;
  const aged = await Promise.all(
    names.map(async (name) => ({ name, modified: (await stat(join(directory, name))).mtimeMs })),
  );
  aged.sort((left, right) => left.modified - right.modified);
  for (const { name } of aged.slice(0, aged.length - DISK_ENTRIES)) {
    await rm(join(directory, name), { force: true });
  }
}

/** Keeps `loaded` under `key`, in memory and (given a directory) on disk; never throws. */
export async function cacheProtocol(
  directory: string | undefined,
  key: string,
  loaded: LoadedProtocol,
): Promise<void> {
  const serialized = JSON.stringify(loaded);
  remember(memoryKey(directory, key), serialized);
  if (directory === undefined) return;
  try {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    // A reader in another process sees no entry or the whole entry, never half of one.
    writeFileAtomic(join(directory, `${key}.json`), serialized, 0o600);
    await pruneOldest(directory);
  } catch {
    // No cache is the same as a cache that cannot be written: the next process parses again.
  }
}

/** Forgets what this process holds in memory (for tests that count parses). */
export function clearProtocolMemoryCache(): void {
  memory.clear();
}
