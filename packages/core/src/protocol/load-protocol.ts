import { readFile, stat } from 'node:fs/promises';
import { ProtocolNotFoundError } from '../errors.js';
import { type LoadedProtocol, type ParseProtocolOptions, parseProtocol } from './parse-protocol.js';
import { cacheProtocol, protocolCacheKey, readCachedProtocol } from './protocol-cache.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { unreadableYamlFile } from './yaml-source.js';

/** Options of `loadProtocol`: those of `parseProtocol`; `fileName` defaults to the path as given. */
export interface LoadProtocolOptions extends ParseProtocolOptions {
  /**
   * Where protocols that loaded are kept by content hash (`$SNODO_HOME/cache/protocols/<project>`), so the next
   * process with the same text skips parsing. Unset: only this process's memory holds them.
   */
  readonly cacheDirectory?: string | undefined;
}

/**
 * Reads and checks a protocol file (normally the main checkout's `.snodo/protocol.yml`, never a
 * worktree's). Throws `ProtocolNotFoundError` when the file does not exist and `ProtocolInvalidError`
 * (every problem, with line and column) when it does not load. A file above `MAX_YAML_SOURCE_BYTES`, or
 * one that is not a regular file, is refused from its `stat`, before a byte of it is read. A text that
 * loaded before (same bytes, same options, same snodo) comes from the cache (`protocol-cache.ts`).
 */
export async function loadProtocol(path: string, options: LoadProtocolOptions = {}): Promise<LoadedProtocol> {
  const fileName = options.fileName ?? path;
  let text: string;
  try {
    const refused = unreadableYamlFile(fileName, await stat(path));
    if (refused !== undefined) throw new ProtocolInvalidError({ file: fileName, issues: [refused] });
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (ProtocolInvalidError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ProtocolNotFoundError({ path, cause: error });
    const reason =
      code === 'EISDIR' ? 'it is a directory, not a file' : `it cannot be read (${code ?? String(error)})`;
    throw new ProtocolInvalidError({
      file: fileName,
      issues: [
        { file: fileName, line: 1, column: 1, path: '', message: reason, severity: 'error', rule: 'file' },
      ],
      cause: error,
    });
  }
  const { cacheDirectory, ...parseOptions } = options;
  const key = protocolCacheKey(text, { ...parseOptions, fileName });
  const cached = await readCachedProtocol(cacheDirectory, key);
  if (cached !== undefined) return cached;
  const loaded = parseProtocol(text, { ...parseOptions, fileName });
  await cacheProtocol(cacheDirectory, key, loaded);
  return loaded;
}
