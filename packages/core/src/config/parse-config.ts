import type { PathIssue, SourceIssue } from '../protocol/source-issue.js';
import { sortSourceIssues } from '../protocol/source-issue.js';
import { findUnknownKeys, type UnknownKey, unknownKeyIssues } from '../protocol/unknown-keys.js';
import { parseYamlSource, positionIssue, type YamlSource } from '../protocol/yaml-source.js';
import { friendlyErrorMap, zodIssuesToPathIssues } from '../protocol/zod-issues.js';
import { ConfigInvalidError } from './config-invalid-error.js';
import { LEGACY_CONFIG_KEYS, type SnodoConfig, snodoConfigSchema } from './config-schema.js';

/** A config that parsed, with what to tell the user about it. */
export interface ParsedConfig {
  /** The config; unknown keys are dropped. */
  readonly config: SnodoConfig;
  /** Unknown and legacy keys, in reading order. */
  readonly warnings: readonly SourceIssue[];
  /** The parsed document, kept so edits can be written back with the user's comments. */
  readonly source: YamlSource;
}

function matchesPattern(path: readonly (string | number)[], pattern: string): boolean {
  const parts = pattern.split('.');
  return (
    parts.length === path.length && parts.every((part, index) => part === '*' || part === String(path[index]))
  );
}

function legacyNote(entry: UnknownKey): string | undefined {
  for (const [pattern, note] of Object.entries(LEGACY_CONFIG_KEYS)) {
    if (matchesPattern(entry.path, pattern)) return note;
  }
  return undefined;
}

/**
 * Parses config text. An empty file is the empty config. Throws `ConfigInvalidError` with every problem
 * (line and column each) for broken YAML or a schema mismatch; unknown keys are warnings.
 */
export function parseConfig(text: string, options: { fileName: string }): ParsedConfig {
  const file = options.fileName;
  const source = parseYamlSource(text, file);
  if (source.issues.some((issue) => issue.severity === 'error')) {
    throw new ConfigInvalidError({ file, issues: source.issues });
  }
  const raw = source.value ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigInvalidError({
      file,
      issues: [
        {
          file,
          line: 1,
          column: 1,
          path: '',
          message:
            'the config must be a YAML mapping (`model: …`, `providers: …`), not a list or a single value',
          severity: 'error',
          rule: 'schema',
        },
      ],
    });
  }
  const parsed = snodoConfigSchema.safeParse(raw, { error: friendlyErrorMap });
  const unknown: UnknownKey[] = [];
  const legacy: PathIssue[] = [];
  for (const entry of findUnknownKeys(snodoConfigSchema, raw)) {
    const note = legacyNote(entry);
    if (note === undefined) unknown.push(entry);
    else legacy.push({ path: entry.path, message: note, severity: 'warning', rule: 'legacy', target: 'key' });
  }
  const pathIssues = [
    ...(parsed.success ? [] : zodIssuesToPathIssues(parsed.error.issues, raw)),
    ...unknownKeyIssues(unknown, false),
    ...legacy,
  ];
  const issues = [...source.issues, ...pathIssues.map((issue) => positionIssue(source, issue))];
  if (!parsed.success) throw new ConfigInvalidError({ file, issues });
  return { config: parsed.data, warnings: sortSourceIssues(issues), source };
}
