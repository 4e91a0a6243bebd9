import type { JsonSchema } from './conversation-view.js';
import { asArray, asNumber, asRecord, asString } from './json-values.js';

/**
 * Just enough JSON-schema reading for the fake LLM: the properties of an object schema, a property's
 * type, and the smallest value that satisfies a schema. Gemini's OpenAPI flavour (`type: 'STRING'`) is
 * read the same way as standard JSON schema.
 */

/** The lower-case type of a schema (`object`, `string`…), the first non-null one of a type list. */
export function schemaType(schema: JsonSchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return type.toLowerCase();
  for (const entry of asArray(type)) {
    if (typeof entry === 'string' && entry.toLowerCase() !== 'null') return entry.toLowerCase();
  }
  for (const key of ['anyOf', 'oneOf']) {
    for (const option of asArray(schema[key])) {
      const optionType = schemaType(asRecord(option));
      if (optionType !== undefined && optionType !== 'null') return optionType;
    }
  }
  if (asRecord(schema.properties) !== undefined) return 'object';
  return undefined;
}

/** The property schemas of an object schema, by name. */
export function schemaProperties(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  const properties = asRecord(schema?.properties) ?? {};
  const result: Record<string, JsonSchema> = {};
  for (const [name, value] of Object.entries(properties)) {
    const property = asRecord(value);
    if (property !== undefined) result[name] = property;
  }
  return result;
}

/** The names an object schema marks as required. */
export function requiredProperties(schema: JsonSchema | undefined): string[] {
  return asArray(schema?.required).filter((name): name is string => typeof name === 'string');
}

/** The item schema of an array schema. */
export function schemaItems(schema: JsonSchema | undefined): JsonSchema | undefined {
  return asRecord(schema?.items);
}

/** The enum values of a schema, empty when it has none. */
export function schemaEnum(schema: JsonSchema | undefined): unknown[] {
  return asArray(schema?.enum);
}

/** Values to use for known property names when synthesising an answer; see `synthesizeFromSchema`. */
export type SchemaValueHints = Readonly<Record<string, unknown>>;

/**
 * The smallest value satisfying `schema`: hinted properties take their hint (clamped to a numeric
 * schema's bounds), enums take their first value, numbers their minimum or 0, strings a short marker.
 * Every declared object property is filled, so strict parsers on the client side accept the result.
 */
export function synthesizeFromSchema(schema: JsonSchema | undefined, hints: SchemaValueHints = {}): unknown {
  return synthesize(schema, hints, undefined, 0);
}

function synthesize(
  schema: JsonSchema | undefined,
  hints: SchemaValueHints,
  propertyName: string | undefined,
  depth: number,
): unknown {
  if (schema === undefined || depth > 12) return null;
  if (propertyName !== undefined && Object.hasOwn(hints, propertyName)) {
    return fitHint(schema, hints[propertyName]);
  }
  if ('const' in schema) return schema.const;
  const choices = schemaEnum(schema);
  if (choices.length > 0) return choices[0];
  switch (schemaType(schema)) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schemaProperties(schema))) {
        value[name] = synthesize(property, hints, name, depth + 1);
      }
      return value;
    }
    case 'array': {
      const minimum = asNumber(schema.minItems) ?? 0;
      const item = synthesize(schemaItems(schema), hints, undefined, depth + 1);
      return Array.from({ length: minimum }, () => item);
    }
    case 'integer':
    case 'number':
      return asNumber(schema.minimum) ?? 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return asString(schema.default) ?? 'fake-llm';
  }
}

function fitHint(schema: JsonSchema, hint: unknown): unknown {
  const choices = schemaEnum(schema);
  if (choices.length > 0 && !choices.includes(hint)) return choices[0];
  if (typeof hint !== 'number') return hint;
  const minimum = asNumber(schema.minimum) ?? Number.NEGATIVE_INFINITY;
  const maximum = asNumber(schema.maximum) ?? Number.POSITIVE_INFINITY;
  return Math.min(Math.max(hint, minimum), maximum);
}
