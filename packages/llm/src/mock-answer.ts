/** The parts of a JSON schema the mock reads; anything else in the schema is ignored. */
interface JsonSchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchemaDefinition>>;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchemaDefinition[];
  readonly oneOf?: readonly JsonSchemaDefinition[];
  readonly $ref?: string;
  readonly minimum?: number;
}

/** A schema node, or `true`/`false` (anything / nothing), as JSON schema allows. */
type JsonSchemaDefinition = JsonSchemaNode | boolean;

/** The values a mock judging model puts into the fields it recognises. */
export interface MockAnswerValues {
  /** The severity of the mock model (`pass` for `mock/pass`). */
  readonly severity: string;
  /** The fixed justification text. */
  readonly justification: string;
}

/**
 * Builds the smallest object that satisfies a JSON schema, deterministically: a `severity` field gets the
 * mock model's severity when the schema allows it, a `justification` field the fixed text, enums their
 * first value, strings `"mock"`, numbers `0`, booleans `false`, arrays `[]`, nullable fields `null`.
 *
 * This lets `mock/pass` answer a verdict request and also any other structured request (the classifier
 * choosing a mode) without a model, so `snodo run --mock` runs the whole pipeline offline.
 */
export function mockAnswer(schema: unknown, values: MockAnswerValues): unknown {
  const root = schema as JsonSchemaDefinition | undefined;
  return synthesize(root, values, undefined, root);
}

function synthesize(
  definition: JsonSchemaDefinition | undefined,
  values: MockAnswerValues,
  fieldName: string | undefined,
  root: JsonSchemaDefinition | undefined,
): unknown {
  if (definition === undefined || typeof definition === 'boolean')
    return fieldValue(fieldName, values, 'mock');
  const schema = followReference(definition, root);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    if (fieldName === 'severity' && schema.enum.includes(values.severity)) return values.severity;
    return schema.enum[0];
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined && branches.length > 0) {
    // Prefer a concrete branch over `null`, so an optional severity still carries the mock's severity.
    const concrete = branches.find((branch) => typeof branch === 'object' && branch.type !== 'null');
    return synthesize(concrete ?? branches[0], values, fieldName, root);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return synthesizeObject(schema, values, root);
    case 'array':
      return [];
    case 'string':
      return fieldValue(fieldName, values, 'mock');
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return schema.properties === undefined
        ? fieldValue(fieldName, values, 'mock')
        : synthesizeObject(schema, values, root);
  }
}

function synthesizeObject(
  schema: JsonSchemaNode,
  values: MockAnswerValues,
  root: JsonSchemaDefinition | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    result[key] = synthesize(property, values, key, root);
  }
  return result;
}

function fieldValue(fieldName: string | undefined, values: MockAnswerValues, fallback: string): string {
  if (fieldName === 'justification') return values.justification;
  if (fieldName === 'severity') return values.severity;
  return fallback;
}

/** Resolves a local `#/definitions/…` or `#/$defs/…` reference; anything else is used as is. */
function followReference(schema: JsonSchemaNode, root: JsonSchemaDefinition | undefined): JsonSchemaNode {
  if (schema.$ref === undefined || typeof root !== 'object') return schema;
  const path = schema.$ref.replace(/^#\//, '').split('/');
  let target: unknown = root;
  for (const segment of path) {
    target =
      typeof target === 'object' && target !== null
        ? (target as Record<string, unknown>)[segment]
        : undefined;
  }
  return typeof target === 'object' && target !== null ? (target as JsonSchemaNode) : schema;
}
