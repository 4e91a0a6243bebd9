/**
 * The part of JSON Schema that zod's `toJSONSchema` writes for snodo's job files (`*.schema.gen.json`
 * beside their zod schemas). Any other keyword is refused, so a schema change that needs more fails the
 * tests instead of being checked loosely.
 */
export interface JsonSchema {
  readonly $schema?: string;
  readonly type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly propertyNames?: JsonSchema;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
}

const KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  'type',
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
]);

/** A value that does not match its schema: `where` is the JSON path of the first mismatch. */
export class JsonSchemaMismatch extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = 'JsonSchemaMismatch';
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: NonNullable<JsonSchema['type']>): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/**
 * Where a value sits in the document, as a chain of steps from the root. The text (`$.verdicts[0].severity`)
 * is only built for a mismatch: `snodo task list` checks every job's file, thousands of values each, and
 * building every value's path as it went cost more than checking it.
 */
type Where = string | { readonly parent: Where; readonly key: string | number };

function render(where: Where): string {
  if (typeof where === 'string') return where;
  const step = typeof where.key === 'number' ? `[${where.key}]` : `.${where.key}`;
  return `${render(where.parent)}${step}`;
}

function mismatch(where: Where, problem: string): JsonSchemaMismatch {
  return new JsonSchemaMismatch(render(where), problem);
}

/** Schemas whose keywords were checked: each object once, not once per value it checks. */
const checkedSchemas = new WeakSet<JsonSchema>();

function checkKeywords(schema: JsonSchema, where: Where): void {
  if (checkedSchemas.has(schema)) return;
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword)) {
      throw new Error(`JSON Schema keyword \`${keyword}\` is not supported (${render(where)})`);
    }
  }
  checkedSchemas.add(schema);
}

/**
 * Checks `value` against `schema` and returns it as zod's `parse` would have: objects keep only the keys
 * their schema declares (zod strips the rest; `additionalProperties: false` is how its JSON Schema says
 * so), records keep every key. Throws `JsonSchemaMismatch` naming the first mismatch. Lets the commands
 * that only read jobs check `state.json` exactly as its zod schema does without loading zod.
 */
export function parseWithJsonSchema(schema: JsonSchema, value: unknown, where = '$'): unknown {
  return parseValue(schema, value, where);
}

function parseValue(schema: JsonSchema, value: unknown, where: Where): unknown {
  checkKeywords(schema, where);
  if (schema.anyOf !== undefined) {
    for (const option of schema.anyOf) {
      // An option of another type would only throw below; skipping it spares building that error
      // (nullable fields are `anyOf: [<type>, null]`, and most of them are absent or null).
      checkKeywords(option, where);
      if (option.type !== undefined && option.anyOf === undefined && !hasType(value, option.type)) continue;
      try {
        return parseValue(option, value, where);
      } catch (error) {
        if (!(error instanceof JsonSchemaMismatch)) throw error;
      }
    }
    throw mismatch(where, 'matches none of the allowed shapes');
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    throw mismatch(where, `expected ${schema.type}, found ${typeOf(value)}`);
  }
  if ('const' in schema && value !== schema.const) {
    throw mismatch(where, `expected ${JSON.stringify(schema.const)}`);
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    throw mismatch(where, `expected one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`);
  }
  if (typeof value === 'number') checkRange(schema, value, where);
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined
      ? value
      : value.map((item, index) => parseValue(items, item, { parent: where, key: index }));
  }
  if (typeOf(value) === 'object') return parseObject(schema, value as Record<string, unknown>, where);
  return value;
}

function checkRange(schema: JsonSchema, value: number, where: Where): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    throw mismatch(where, `must be at least ${schema.minimum}`);
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    throw mismatch(where, `must be at most ${schema.maximum}`);
  }
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    throw mismatch(where, `must be more than ${schema.exclusiveMinimum}`);
  }
}

function parseObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  where: Where,
): Record<string, unknown> {
  if (schema.propertyNames !== undefined && schema.propertyNames.type !== 'string') {
    throw new Error(`only string property names are supported (${render(where)})`);
  }
  for (const key of schema.required ?? []) {
    if (!Object.hasOwn(value, key)) throw mismatch({ parent: where, key }, 'is missing');
  }
  const parsed: Record<string, unknown> = {};
  const properties = schema.properties ?? {};
  const additional = schema.additionalProperties ?? true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const itemSchema = declared ?? (typeof additional === 'object' ? additional : undefined);
    if (itemSchema !== undefined) {
      define(parsed, key, parseValue(itemSchema, item, { parent: where, key }));
    } else if (additional === true) {
      define(parsed, key, item);
    }
  }
  return parsed;
}

/**
 * A plain assignment of a `__proto__` key (JSON allows one) would replace the object's prototype, and one of
 * any key a polluted `Object.prototype` has a setter for would call it: those are defined as data. Every
 * other key is assigned, which is the same property and several times cheaper.
 */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
