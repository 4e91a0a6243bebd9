import { didYouMean } from './closest-match.js';
import { isRecord, listOf, recordsOf, stringsOf, textOf } from './raw-protocol-view.js';
import { type DocumentPath, formatDocumentPath, type PathIssue } from './source-issue.js';

/** Predicates every snodo install evaluates (SPEC §5). An embedder that registers more passes their names. */
export const DEFAULT_KNOWN_PREDICATES = [
  'files_in_scope',
  'tests_exist_for_modified',
  'no_secrets_in_diff',
] as const;

/** What the well-formedness checks need to know about the running install. */
export interface WellFormednessOptions {
  /** Ids of registered coders; when given, a mode's `coder` must be one of them. */
  readonly registeredCoders?: readonly string[] | undefined;
  /** Predicate names besides `DEFAULT_KNOWN_PREDICATES`. */
  readonly knownPredicates?: readonly string[] | undefined;
}

function error(path: DocumentPath, rule: string, message: string): PathIssue {
  return { path, message: `${rule}: ${message}`, severity: 'error', rule };
}

/**
 * WF1–WF5 and the registered-coder check (SPEC §3), over the protocol as plain data. Every violation is
 * reported, each on the node that causes it (the Python original stopped at the first failing check).
 */
export function checkWellFormedness(raw: unknown, options: WellFormednessOptions = {}): PathIssue[] {
  if (!isRecord(raw)) return [];
  return [
    ...checkUniqueIds(raw),
    ...checkModeSeparation(raw),
    ...checkRoleUniqueness(raw),
    ...checkValidatorCoverage(raw),
    ...checkPolicy(raw),
    ...checkConstraints(raw, options.knownPredicates ?? []),
    ...checkCoders(raw, options.registeredCoders),
  ];
}

/** Later occurrences of an id already used in the same list. */
function duplicates(list: unknown, idKey: string): { index: number; id: string; firstIndex: number }[] {
  const seen = new Map<string, number>();
  const found: { index: number; id: string; firstIndex: number }[] = [];
  for (const { index, record } of recordsOf(list)) {
    const id = textOf(record[idKey]);
    if (id === undefined) continue;
    const firstIndex = seen.get(id);
    if (firstIndex === undefined) seen.set(id, index);
    else found.push({ index, id, firstIndex });
  }
  return found;
}

function checkUniqueIds(raw: Record<string, unknown>): PathIssue[] {
  const issues: PathIssue[] = [];
  for (const [list, idKey] of [
    ['modes', 'mode_id'],
    ['validators', 'validator_id'],
  ] as const) {
    for (const duplicate of duplicates(raw[list], idKey)) {
      issues.push({
        path: [list, duplicate.index, idKey],
        message: `${idKey} \`${duplicate.id}\` is already used by ${list}[${duplicate.firstIndex}]; ids must be unique`,
        severity: 'error',
        rule: 'unique-ids',
      });
    }
  }
  return issues;
}

/** WF1: no two modes share a logical tool (separation of duties). */
function checkModeSeparation(raw: Record<string, unknown>): PathIssue[] {
  const issues: PathIssue[] = [];
  const modes = recordsOf(raw.modes);
  for (const [position, later] of modes.entries()) {
    const laterTools = stringsOf(later.record.tools);
    for (const earlier of modes.slice(0, position)) {
      const earlierTools = new Set(stringsOf(earlier.record.tools).map((tool) => tool.text));
      const shared = laterTools.filter((tool) => earlierTools.has(tool.text));
      const first = shared[0];
      if (first === undefined) continue;
      const names = [...new Set(shared.map((tool) => tool.text))].sort();
      issues.push(
        error(
          ['modes', later.index, 'tools', first.index],
          'WF1',
          `modes \`${modeName(earlier.record, earlier.index)}\` and \`${modeName(later.record, later.index)}\` ` +
            `share tools ${listOf(names)}; each logical tool belongs to one mode (separation of duties)`,
        ),
      );
    }
  }
  return issues;
}

function modeName(mode: Readonly<Record<string, unknown>>, index: number): string {
  return textOf(mode.mode_id) ?? `modes[${index}]`;
}

/** WF2: role ids are unique. */
function checkRoleUniqueness(raw: Record<string, unknown>): PathIssue[] {
  return duplicates(raw.roles, 'role_id').map((duplicate) =>
    error(
      ['roles', duplicate.index, 'role_id'],
      'WF2',
      `role id \`${duplicate.id}\` is already used by roles[${duplicate.firstIndex}]`,
    ),
  );
}

/** WF3: referenced validators exist, `initial_mode` exists, dispatching modes have a pre-execute gate. */
function checkValidatorCoverage(raw: Record<string, unknown>): PathIssue[] {
  const issues: PathIssue[] = [];
  const phases = new Map<string, string>();
  for (const { record } of recordsOf(raw.validators)) {
    const id = textOf(record.validator_id);
    if (id !== undefined) phases.set(id, textOf(record.evaluation_phase) ?? 'pre_execute');
  }
  const modes = recordsOf(raw.modes);
  const modeIds = modes.flatMap(({ record }) => textOf(record.mode_id) ?? []);
  for (const { index, record } of modes) {
    const name = modeName(record, index);
    const references = stringsOf(record.validators);
    for (const reference of references) {
      if (phases.has(reference.text)) continue;
      issues.push(
        error(
          ['modes', index, 'validators', reference.index],
          'WF3',
          `mode \`${name}\` uses validator \`${reference.text}\`, which is not defined under \`validators\`` +
            `${didYouMean(reference.text, phases.keys())} (defined: ${listOf(phases.keys())})`,
        ),
      );
    }
    const dispatch = stringsOf(record.tools).find((tool) => tool.text === 'dispatch');
    const hasPreExecute = references.some((reference) => phases.get(reference.text) === 'pre_execute');
    if (dispatch !== undefined && !hasPreExecute) {
      issues.push(
        error(
          ['modes', index, 'tools', dispatch.index],
          'WF3',
          `mode \`${name}\` can dispatch (tool \`dispatch\`) but runs no pre_execute validator; ` +
            'add one to its `validators`',
        ),
      );
    }
  }
  const initial = textOf(raw.initial_mode);
  if (initial !== undefined && !modeIds.includes(initial)) {
    issues.push(
      error(
        ['initial_mode'],
        'WF3',
        `initial_mode \`${initial}\` is not a mode${didYouMean(initial, modeIds)} (modes: ${listOf(modeIds)})`,
      ),
    );
  }
  return issues;
}

/** WF4: the disagreement policy can be met by the validators the protocol defines. */
function checkPolicy(raw: Record<string, unknown>): PathIssue[] {
  const total = Array.isArray(raw.validators) ? raw.validators.length : 0;
  const policy = textOf(raw.disagreement_policy) ?? 'unanimous';
  const where: DocumentPath =
    raw.disagreement_policy === undefined ? ['validators'] : ['disagreement_policy'];
  if (total === 0) {
    return [
      error(
        ['validators'],
        'WF4',
        'a protocol needs at least one validator for its policy to approve a task',
      ),
    ];
  }
  if (policy === 'majority' && total < 2) {
    return [
      error(where, 'WF4', `policy \`majority\` needs at least 2 validators; this protocol defines ${total}`),
    ];
  }
  if (policy === 'quorum' && total < 3) {
    return [
      {
        path: where,
        message: `WF4: policy \`quorum\` with ${total} validators behaves like \`unanimous\`; a quorum needs at least 3`,
        severity: 'warning',
        rule: 'WF4',
      },
    ];
  }
  return [];
}

/** WF5: constraint ids unique across the protocol, predicates known, every constraint says what it checks. */
function checkConstraints(raw: Record<string, unknown>, extraPredicates: readonly string[]): PathIssue[] {
  const known = new Set<string>([...DEFAULT_KNOWN_PREDICATES, ...extraPredicates]);
  const located: { path: DocumentPath; record: Readonly<Record<string, unknown>> }[] = [];
  const collect = (list: unknown, base: DocumentPath) => {
    for (const { index, record } of recordsOf(list)) located.push({ path: [...base, index], record });
  };
  collect(raw.global_constraints, ['global_constraints']);
  for (const { index, record } of recordsOf(raw.modes))
    collect(record.constraints, ['modes', index, 'constraints']);
  for (const { index, record } of recordsOf(raw.validators)) {
    collect(record.constraints, ['validators', index, 'constraints']);
  }
  const issues: PathIssue[] = [];
  const firstUse = new Map<string, DocumentPath>();
  for (const { path, record } of located) {
    const id = textOf(record.constraint_id);
    const label = id ?? formatDocumentPath(path);
    if (id !== undefined) {
      const first = firstUse.get(id);
      if (first === undefined) firstUse.set(id, path);
      else {
        issues.push(
          error(
            [...path, 'constraint_id'],
            'WF5',
            `constraint id \`${id}\` is already used by ${formatDocumentPath(first)}`,
          ),
        );
      }
    }
    const predicate = textOf(record.predicate);
    if (predicate !== undefined && !known.has(predicate)) {
      issues.push(
        error(
          [...path, 'predicate'],
          'WF5',
          `constraint \`${label}\` uses unknown predicate \`${predicate}\`${didYouMean(predicate, known)} ` +
            `(known: ${listOf([...known].sort())})`,
        ),
      );
    }
    if (predicate === undefined && textOf(record.expression) === undefined) {
      issues.push(
        error(
          path,
          'WF5',
          `constraint \`${label}\` has neither \`predicate\` nor \`expression\`; name a predicate ` +
            `(known: ${listOf([...known].sort())})`,
        ),
      );
    }
  }
  return issues;
}

/** A mode's `coder` names a registered coder (checked only when the caller passes the registry's ids). */
function checkCoders(raw: Record<string, unknown>, registered: readonly string[] | undefined): PathIssue[] {
  if (registered === undefined) return [];
  const issues: PathIssue[] = [];
  for (const { index, record } of recordsOf(raw.modes)) {
    const coder = textOf(record.coder);
    if (coder === undefined || registered.includes(coder)) continue;
    issues.push({
      path: ['modes', index, 'coder'],
      message:
        `mode \`${modeName(record, index)}\` uses coder \`${coder}\`, which is not registered` +
        `${didYouMean(coder, registered)}; registered coders: ${listOf(registered)}. ` +
        'Run `snodo coders` to see them and how to install one.',
      severity: 'error',
      rule: 'coder',
    });
  }
  return issues;
}
