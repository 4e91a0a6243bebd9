import { readFileSync, statSync } from 'node:fs';
import type { SourceIssue } from '../protocol/source-issue.js';
import { unreadableYamlFile } from '../protocol/yaml-source.js';
import { ConfigInvalidError } from './config-invalid-error.js';
import type { SnodoConfig } from './config-schema.js';
import { type ParsedConfig, parseConfig } from './parse-config.js';

/** The config as read from disk. */
export interface LoadedConfig {
  /** The file read (or that would be read). */
  readonly path: string;
  /** Whether the file exists; a missing file is the empty config, not an error. */
  readonly exists: boolean;
  /** The config. */
  readonly config: SnodoConfig;
  /** Unknown and legacy keys, and a readable-by-others file mode. */
  readonly warnings: readonly SourceIssue[];
}

/** `LoadedConfig` plus the parsed document, for edits that keep comments. */
export interface LoadedConfigSource extends LoadedConfig {
  /** Absent when the file does not exist. */
  readonly parsed: ParsedConfig | undefined;
}

/**
 * Reads the config file. Missing → the empty config. Unreadable, broken YAML or a schema mismatch →
 * `ConfigInvalidError` with every problem's line and column, never a silent fallback to defaults.
 * Synchronous: the CLI reads it once at start-up and `snodo config` is a one-shot command. A file above
 * `MAX_YAML_SOURCE_BYTES` (1 MiB; a config is a few hundred bytes) is refused from its size, unread.
 */
export function loadConfigFile(path: string): LoadedConfigSource {
  let text: string;
  try {
    const refused = unreadableYamlFile(path, statSync(path));
    if (refused !== undefined) throw new ConfigInvalidError({ file: path, issues: [refused] });
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (ConfigInvalidError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, exists: false, config: {}, warnings: [], parsed: undefined };
    const reason =
      code === 'EISDIR' ? 'it is a directory, not a file' : `it cannot be read (${code ?? String(error)})`;
    throw new ConfigInvalidError({
      file: path,
      issues: [
        { file: path, line: 1, column: 1, path: '', message: reason, severity: 'error', rule: 'file' },
      ],
      cause: error,
    });
  }
  const parsed = parseConfig(text, { fileName: path });
  const warnings = [...permissionWarnings(path), ...parsed.warnings];
  return { path, exists: true, config: parsed.config, warnings, parsed };
}

/** A warning when group or others may read the file: it can hold API keys. */
function permissionWarnings(path: string): SourceIssue[] {
  // NOTE: Windows reports synthetic POSIX modes (0o666 for any writable file); the check means nothing there.
  if (process.platform === 'win32') return [];
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  return [
    {
      file: path,
      line: 1,
      column: 1,
      path: '',
      message:
        `the file is readable by other users (mode ${mode.toString(8).padStart(4, '0')}) and may hold API keys; ` +
        `run \`chmod 600 ${path}\``,
      severity: 'warning',
      rule: 'permissions',
    },
  ];
}
