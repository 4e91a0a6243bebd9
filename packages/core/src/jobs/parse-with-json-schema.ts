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
 * Checks `value` against `schema` and returns it as zod's `parse` would have: objects keep only the keys
 * their schema declares (zod strips the rest; `additionalProperties: false` is how its JSON Schema says
 * so), records keep every key. Throws `JsonSchemaMismatch` naming the first mismatch. Lets the commands
 * that only read jobs check `state.json` exactly as its zod schema does without loading zod.
 */
export function parseWithJsonSchema(schema: JsonSchema, value: unknown, where = '$'): unknown {
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword)) {
      throw new Error(`JSON Schema keyword \`${keyword}\` is not supported (${where})`);
    }
  }
  if (schema.anyOf !== undefined) {
    for (const option of schema.anyOf) {
      try {
        return parseWithJsonSchema(option, value, where);
      } catch (error) {
        if (!(error instanceof JsonSchemaMismatch)) throw error;
      }
    }
    throw new JsonSchemaMismatch(where, 'matches none of the allowed shapes');
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    throw new JsonSchemaMismatch(where, `expected ${schema.type}, found ${typeOf(value)}`);
  }
  if ('const' in schema && value !== schema.const) {
    throw new JsonSchemaMismatch(where, `expected ${JSON.stringify(schema.const)}`);
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    throw new JsonSchemaMismatch(
      where,
      `expected one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`,
    );
  }
  if (typeof value === 'number') checkRange(schema, value, where);
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined
      ? value
      : value.map((item, index) => parseWithJsonSchema(items, item, `${where}[${index}]`));
  }
  if (typeOf(value) === 'object') return parseObject(schema, value as Record<string, unknown>, where);
  return value;
}

function checkRange(schema: JsonSchema, value: number, where: string): void {
  if (schema.minimum !== undefined && value < schema.minimum) {
    throw new JsonSchemaMismatch(where, `must be at least ${schema.minimum}`);
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    throw new JsonSchemaMismatch(where, `must be at most ${schema.maximum}`);
  }
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    throw new JsonSchemaMismatch(where, `must be more than ${schema.exclusiveMinimum}`);
  }
}

function parseObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  where: string,
): Record<string, unknown> {
  if (schema.propertyNames !== undefined && schema.propertyNames.type !== 'string') {
    throw new Error(`only string property names are supported (${where})`);
  }
  for (const key of schema.required ?? []) {
    if (!Object.hasOwn(value, key)) throw new JsonSchemaMismatch(`${where}.${key}`, 'is missing');
  }
  const parsed: Record<string, unknown> = {};
  const properties = schema.properties ?? {};
  const additional = schema.additionalProperties ?? true;
  for (const [key, item] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const itemSchema = declared ?? (typeof additional === 'object' ? additional : undefined);
    if (itemSchema !== undefined) {
      define(parsed, key, parseWithJsonSchema(itemSchema, item, `${where}.${key}`));
    } else if (additional === true) {
      define(parsed, key, item);
    }
  }
  return parsed;
}

/** A plain assignment of a `__proto__` key (JSON allows one) would replace the object's prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
