import { closestMatch, didYouMean } from './closest-match.js';
import type { DocumentPath, PathIssue } from './source-issue.js';
import { type AnySchema, schemaDefinition, unwrapSchema } from './zod-introspection.js';

/** A mapping key the schema does not define, with the keys that level does define. */
export interface UnknownKey {
  /** Path of the key itself (its last segment is the key). */
  readonly path: DocumentPath;
  /** The unknown key. */
  readonly key: string;
  /** The keys the schema defines at that level, for suggestions. */
  readonly knownKeys: readonly string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Every key in `value` that `schema` does not define, at any depth. Reads the zod schema itself, so the
 * schema stays the one place that lists the known keys. Records (`params`, `metadata`, `providers`…)
 * accept any key; their values are checked against the record's value schema.
 */
export function findUnknownKeys(schema: AnySchema, value: unknown, path: DocumentPath = []): UnknownKey[] {
  const found: UnknownKey[] = [];
  walk(schema, value, path, found);
  return found;
}

function walk(schema: AnySchema, value: unknown, path: DocumentPath, found: UnknownKey[]): void {
  const definition = schemaDefinition(unwrapSchema(schema));
  switch (definition.type) {
    case 'object': {
      if (!isPlainObject(value) || definition.shape === undefined) return;
      const knownKeys = Object.keys(definition.shape);
      for (const [key, child] of Object.entries(value)) {
        const childSchema = definition.shape[key];
        // A loose object (a coder's settings) passes extra keys on to whoever reads them; only a key that
        // looks like a typo of a known one is worth a warning there.
        const reportable = definition.catchall === undefined || closestMatch(key, knownKeys) !== undefined;
        if (childSchema === undefined && reportable) found.push({ path: [...path, key], key, knownKeys });
        else if (childSchema !== undefined) walk(childSchema, child, [...path, key], found);
      }
      return;
    }
    case 'array': {
      if (!Array.isArray(value) || definition.element === undefined) return;
      for (const [index, item] of value.entries()) walk(definition.element, item, [...path, index], found);
      return;
    }
    case 'record': {
      if (!isPlainObject(value) || definition.valueType === undefined) return;
      for (const [key, child] of Object.entries(value))
        walk(definition.valueType, child, [...path, key], found);
      return;
    }
    case 'union': {
      const option = (definition.options ?? []).find((candidate) => {
        const type = schemaDefinition(unwrapSchema(candidate)).type;
        return Array.isArray(value) ? type === 'array' : isPlainObject(value) && type === 'object';
      });
      if (option !== undefined) walk(option, value, path, found);
      return;
    }
    default:
      return;
  }
}

/**
 * Unknown keys as issues: a warning with a "did you mean" suggestion from the keys of that level, or an
 * error under `strict`.
 */
export function unknownKeyIssues(unknownKeys: readonly UnknownKey[], strict: boolean): PathIssue[] {
  return unknownKeys.map((unknown) => {
    const hint = didYouMean(unknown.key, unknown.knownKeys);
    const consequence = strict ? 'not allowed under --strict' : 'snodo ignores it';
    return {
      path: unknown.path,
      message: `unknown key \`${unknown.key}\`${hint}; ${consequence}`,
      severity: strict ? 'error' : 'warning',
      rule: 'unknown-key',
      target: 'key',
    };
  });
}
