import { checkLegacyUsage, separateLegacyKeys } from './legacy-usage.js';
import { ProtocolInvalidError } from './protocol-invalid-error.js';
import { type Protocol, protocolSchema } from './protocol-schema.js';
import { type PathIssue, type SourceIssue, sortSourceIssues } from './source-issue.js';
import { findUnknownKeys, unknownKeyIssues } from './unknown-keys.js';
import { checkWellFormedness } from './well-formedness.js';
import { parseYamlSource, positionIssue } from './yaml-source.js';
import { friendlyErrorMap, zodIssuesToPathIssues } from './zod-issues.js';

/** Options of `parseProtocol`. */
export interface ParseProtocolOptions {
  /** The name issues carry (`.snodo/protocol.yml`). Default `protocol.yml`. */
  readonly fileName?: string | undefined;
  /** Unknown keys become errors instead of warnings (`snodo protocol validate --strict`). */
  readonly strict?: boolean | undefined;
  /** Ids of registered coders; when given, a mode's `coder` must be one of them. */
  readonly registeredCoders?: readonly string[] | undefined;
  /** Predicate names the caller registered besides the built-in ones. */
  readonly knownPredicates?: readonly string[] | undefined;
}

/** A protocol that loaded, and the warnings to show the user. */
export interface LoadedProtocol {
  /** The protocol, defaults filled, unknown keys dropped. */
  readonly protocol: Protocol;
  /** Problems that did not fail the load (unknown keys, legacy keys, a small quorum…), in reading order. */
  readonly warnings: readonly SourceIssue[];
  /** Whether the text sets `execution.merge_strategy` (rather than taking the default). */
  readonly declaresMergeStrategy: boolean;
}

/**
 * Parses and checks protocol text: YAML syntax, the schema, unknown and legacy keys, WF1–WF5 and the
 * registered-coder check. Throws `ProtocolInvalidError` with every problem (errors and warnings) when any
 * error is found; otherwise returns the protocol and its warnings.
 */
export function parseProtocol(text: string, options: ParseProtocolOptions = {}): LoadedProtocol {
  const file = options.fileName ?? 'protocol.yml';
  const source = parseYamlSource(text, file);
  if (source.issues.some((issue) => issue.severity === 'error')) {
    throw new ProtocolInvalidError({ file, issues: source.issues });
  }
  const raw = source.value;
  if (raw === null || raw === undefined || typeof raw !== 'object' || Array.isArray(raw)) {
    const issue: SourceIssue = {
      file,
      line: 1,
      column: 1,
      path: '',
      message:
        raw === null || raw === undefined
          ? 'the file is empty; a protocol needs at least `protocol_id`, `name`, `modes`, `validators` and `initial_mode` (run `snodo init` for a starting point)'
          : 'a protocol must be a YAML mapping (`protocol_id: …`, `modes: …`), not a list or a single value',
      severity: 'error',
      rule: 'schema',
    };
    throw new ProtocolInvalidError({ file, issues: [...source.issues, issue] });
  }

  const parsed = protocolSchema.safeParse(raw, { error: friendlyErrorMap });
  const { legacy, unknown } = separateLegacyKeys(findUnknownKeys(protocolSchema, raw));
  const pathIssues: PathIssue[] = [
    ...(parsed.success ? [] : zodIssuesToPathIssues(parsed.error.issues, raw)),
    ...unknownKeyIssues(unknown, options.strict === true),
    ...legacy,
    ...checkLegacyUsage(raw),
    ...checkWellFormedness(raw, {
      registeredCoders: options.registeredCoders,
      knownPredicates: options.knownPredicates,
    }),
  ];
  const issues = [...source.issues, ...pathIssues.map((issue) => positionIssue(source, issue))];
  if (!parsed.success || issues.some((issue) => issue.severity === 'error')) {
    throw new ProtocolInvalidError({ file, issues });
  }
  return {
    protocol: parsed.data,
    warnings: sortSourceIssues(issues.filter((issue) => issue.severity === 'warning')),
    declaresMergeStrategy:
      (raw as { execution?: { merge_strategy?: unknown } }).execution?.merge_strategy !== undefined,
  };
}
