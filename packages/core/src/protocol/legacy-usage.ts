import { LEGACY_EXECUTION_KEYS } from './protocol-execution-schema.js';
import type { DocumentPath, PathIssue } from './source-issue.js';
import type { UnknownKey } from './unknown-keys.js';

/**
 * Keys the Python original's files carry that the schema deliberately leaves out, keyed by path pattern
 * (`[]` stands for any list index). They load with a warning that explains them instead of an
 * "unknown key" warning, even under `--strict`, because the brief is to read those files unchanged.
 */
export const LEGACY_PROTOCOL_KEYS: Readonly<Record<string, string>> = {
  severity_threshold:
    "`severity_threshold` comes from the Python snodo's first protocol format and is ignored; limit what a gate may emit with `severity_cap` on the validator",
  'validators[].severity_threshold':
    "`severity_threshold` on a validator comes from the Python snodo's first protocol format and is ignored; use `severity_cap`",
  'validators[].judges_spec':
    '`judges_spec` is a key of the Python snodo and is ignored: pre-execute judges always read the task text',
};

/** `validators[].tools` from `['validators', 3, 'tools']`. */
export function pathPattern(path: DocumentPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += '[]';
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

/**
 * Splits unknown keys into the Python original's legacy keys (returned as explained warnings) and truly
 * unknown ones.
 */
export function separateLegacyKeys(unknownKeys: readonly UnknownKey[]): {
  legacy: PathIssue[];
  unknown: UnknownKey[];
} {
  const legacy: PathIssue[] = [];
  const unknown: UnknownKey[] = [];
  for (const entry of unknownKeys) {
    const note = LEGACY_PROTOCOL_KEYS[pathPattern(entry.path)];
    if (note === undefined) unknown.push(entry);
    else legacy.push({ path: entry.path, message: note, severity: 'warning', rule: 'legacy', target: 'key' });
  }
  return { legacy, unknown };
}

function records(value: unknown): [number, Record<string, unknown>][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index): [number, Record<string, unknown>][] =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? [[index, item as Record<string, unknown>]]
      : [],
  );
}

/**
 * Settings that are valid but do nothing in this snodo, each as a warning on its own node: the original's
 * execution keys, the `mode_transition` phase (never run), and constraints declared on a validator (they
 * are evaluated with the constraints of the modes that list the validator, not on their own).
 */
export function checkLegacyUsage(raw: unknown): PathIssue[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const protocol = raw as Record<string, unknown>;
  const issues: PathIssue[] = [];
  const execution = protocol.execution;
  if (execution !== null && typeof execution === 'object' && !Array.isArray(execution)) {
    for (const key of Object.keys(execution)) {
      const note = LEGACY_EXECUTION_KEYS[key];
      if (note === undefined) continue;
      issues.push({
        path: ['execution', key],
        message: `\`execution.${key}\` is a setting of the Python snodo and is ignored: ${note}`,
        severity: 'warning',
        rule: 'legacy',
        target: 'key',
      });
    }
  }
  for (const [index, validator] of records(protocol.validators)) {
    const id = String(validator.validator_id ?? index);
    if (validator.evaluation_phase === 'mode_transition') {
      issues.push({
        path: ['validators', index, 'evaluation_phase'],
        message: `validator \`${id}\` runs in phase \`mode_transition\`, which snodo never runs; use pre_execute or post_execute`,
        severity: 'warning',
        rule: 'legacy',
      });
    }
    if (Array.isArray(validator.constraints) && validator.constraints.length > 0) {
      issues.push({
        path: ['validators', index, 'constraints'],
        message:
          `constraints under validator \`${id}\` are evaluated together with the constraints of each mode that ` +
          'lists this validator, not by the validator; consider moving them to the mode or to `global_constraints`',
        severity: 'warning',
        rule: 'legacy',
        target: 'key',
      });
    }
  }
  return issues;
}
