import type { z } from 'zod';

/** Any zod schema. */
export type AnySchema = z.core.$ZodType;

/** The parts of a zod definition that introspection reads. */
export interface SchemaDefinition {
  /** `object`, `array`, `record`, `union`, `string`, `optional`… */
  readonly type: string;
  /** Wrapped schema of `optional`, `default`, `prefault`, `nullable`… */
  readonly innerType?: AnySchema;
  /** Input side of a `pipe`. */
  readonly in?: AnySchema;
  /** Keys of an `object`. */
  readonly shape?: Readonly<Record<string, AnySchema>>;
  /** Schema of the extra keys a loose `object` accepts (`.loose()`). */
  readonly catchall?: AnySchema;
  /** Item schema of an `array`. */
  readonly element?: AnySchema;
  /** Value schema of a `record`. */
  readonly valueType?: AnySchema;
  /** Members of a `union`. */
  readonly options?: readonly AnySchema[];
}

/** A schema's definition (zod 4's documented `_zod.def` for library authors). */
export function schemaDefinition(schema: AnySchema): SchemaDefinition {
  return schema._zod.def as unknown as SchemaDefinition;
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'nonoptional', 'catch']);

/** Strips optional/default/pipe wrappers down to the schema that decides the value's shape. */
export function unwrapSchema(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const definition = schemaDefinition(current);
    if (WRAPPERS.has(definition.type) && definition.innerType !== undefined) current = definition.innerType;
    else if (definition.type === 'pipe' && definition.in !== undefined) current = definition.in;
    else return current;
  }
}
