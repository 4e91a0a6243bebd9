import { parse as parseYaml } from 'yaml';
import { safeParse } from 'zod';
import { ConfigKeyError } from '../errors.js';
import { closestMatch, editDistance } from '../protocol/closest-match.js';
import { type AnySchema, schemaDefinition, unwrapSchema } from '../protocol/zod-introspection.js';
import { friendlyErrorMap } from '../protocol/zod-issues.js';
import { snodoConfigSchema } from './config-schema.js';

/** Placeholders for the names a user chooses, shown in the list of valid keys. */
const RECORD_PLACEHOLDERS: Readonly<Record<string, string>> = {
  providers: '<provider>',
  coders: '<coder>',
  prices: '<model>',
  env: '<VARIABLE>',
};

/** A dotted key resolved against the config schema. */
export interface ConfigKey {
  /** The dotted key as typed. */
  readonly key: string;
  /** Segments into the config (a model name with dots is one segment: `prices.gpt-4.1.input`). */
  readonly path: readonly string[];
  /** The schema of the value at that path, wrappers removed. */
  readonly schema: AnySchema;
  /** Whether the key names a section (`llm.validator`, `providers.<name>`) rather than a value. */
  readonly isSection: boolean;
}

/** Records whose names never hold a dot: coder ids are kebab case (`my-cli`). */
const UNDOTTED_RECORDS: ReadonlySet<string> = new Set(['coders']);

type Resolution = { path: string[]; schema: AnySchema } | { failedAt: number; known: readonly string[] };

function resolveFrom(
  schema: AnySchema,
  segments: readonly string[],
  index: number,
  path: string[],
): Resolution {
  const shape = unwrapSchema(schema);
  const definition = schemaDefinition(shape);
  if (index === segments.length) return { path, schema: shape };
  if (definition.type === 'object' && definition.shape !== undefined) {
    const segment = segments[index]!;
    const child = definition.shape[segment];
    if (child === undefined) return { failedAt: index, known: Object.keys(definition.shape) };
    return resolveFrom(child, segments, index + 1, [...path, segment]);
  }
  if (definition.type === 'record' && definition.valueType !== undefined) {
    // A record key may itself contain dots (model names): try the shortest key that leaves a valid rest.
    let deepest: Resolution = { failedAt: index + 1, known: [] };
    const longest = path.length === 1 && UNDOTTED_RECORDS.has(path[0]!) ? index + 1 : segments.length;
    for (let end = index + 1; end <= longest; end += 1) {
      const name = segments.slice(index, end).join('.');
      const attempt = resolveFrom(definition.valueType, segments, end, [...path, name]);
      if ('schema' in attempt) {
        // `coders.my-cli.base_ur` would resolve as a coder named `my-cli.base_ur`: a typo of a
        // key under a shorter name is the likelier reading.
        if (end > index + 1 && isTypo(segments, deepest)) return deepest;
        return attempt;
      }
      if (attempt.failedAt >= ('failedAt' in deepest ? deepest.failedAt : 0)) deepest = attempt;
    }
    return deepest;
  }
  return { failedAt: index, known: [] };
}

/** Whether a failed resolution stopped at a near miss of a known key. */
function isTypo(segments: readonly string[], resolution: Resolution): boolean {
  if (!('failedAt' in resolution)) return false;
  return closestMatch(segments[resolution.failedAt] ?? '', resolution.known) !== undefined;
}

/**
 * Resolves `llm.validator.model`, `providers.<name>.api_key`, `prices.<model>.input`… against the schema.
 * Throws `ConfigKeyError` for an unknown key, with a suggestion and the list of valid keys.
 */
export function resolveConfigKey(key: string): ConfigKey {
  const segments = key.split('.');
  if (key.trim() === '' || segments.some((segment) => segment === '')) {
    throw new ConfigKeyError({
      key,
      problem: 'it is empty or has an empty part',
      validKeys: listConfigKeys(),
    });
  }
  const resolution = resolveFrom(snodoConfigSchema, segments, 0, []);
  if ('failedAt' in resolution) {
    const segment = segments[resolution.failedAt] ?? '';
    const suggestion = closestMatch(segment, resolution.known);
    const problem =
      resolution.known.length === 0
        ? `\`${segments.slice(0, resolution.failedAt).join('.')}\` is a value and has no keys`
        : `\`${segment}\` is not a key of ${resolution.failedAt === 0 ? 'the config' : `\`${segments.slice(0, resolution.failedAt).join('.')}\``}` +
          (suggestion === undefined ? '' : ` (did you mean \`${suggestion}\`?)`);
    const prefix = segments.slice(0, resolution.failedAt).join('.');
    const nearest = nearestKeys(segment, resolution.known).map((known) =>
      prefix === '' ? known : `${prefix}.${known}`,
    );
    throw new ConfigKeyError({
      key,
      problem,
      validKeys: nearest.length === 0 ? listConfigKeys() : nearest,
      nearest: nearest.length > 0,
    });
  }
  return {
    key,
    path: resolution.path,
    schema: resolution.schema,
    isSection: isSectionSchema(resolution.schema),
  };
}

/** How many keys an unknown key's message names. */
const NEAREST_KEY_COUNT = 6;

/** The known keys of one level, closest to the mistyped one first. */
function nearestKeys(segment: string, known: readonly string[]): string[] {
  return [...known]
    .map((candidate) => ({ candidate, distance: editDistance(segment, candidate) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, NEAREST_KEY_COUNT)
    .map(({ candidate }) => candidate);
}

/**
 * Whether a key names a section to set key by key: an object, or a record of objects (`providers`). A
 * record of plain values (`coders.<id>.env`, `provider_config`) is one value, written as YAML or JSON.
 */
function isSectionSchema(schema: AnySchema): boolean {
  const definition = schemaDefinition(schema);
  if (definition.type === 'object') return true;
  if (definition.type !== 'record' || definition.valueType === undefined) return false;
  const valueType = schemaDefinition(unwrapSchema(definition.valueType)).type;
  return valueType === 'object' || valueType === 'record';
}

/** Every settable key, e.g. `llm.<validator|…>` spelled out and `providers.<provider>.api_key`. */
export function listConfigKeys(): string[] {
  const keys: string[] = [];
  const walk = (schema: AnySchema, prefix: string, parentKey: string) => {
    const definition = schemaDefinition(unwrapSchema(schema));
    if (definition.type === 'object' && definition.shape !== undefined) {
      for (const [key, child] of Object.entries(definition.shape))
        walk(child, prefix === '' ? key : `${prefix}.${key}`, key);
    } else if (definition.type === 'record' && definition.valueType !== undefined) {
      walk(definition.valueType, `${prefix}.${RECORD_PLACEHOLDERS[parentKey] ?? '<name>'}`, '');
    } else {
      keys.push(prefix);
    }
  };
  walk(snodoConfigSchema, '', '');
  return keys;
}

/**
 * Turns the text typed after `snodo config set <key>` into the key's value and checks it. Strings are taken
 * verbatim (so `1.0` stays a string); numbers, booleans and lists are read as YAML
 * (`0.2`, `true`, `["my-cli", "run", "{prompt}"]`).
 */
export function parseConfigValue(configKey: ConfigKey, text: string): unknown {
  if (configKey.isSection) {
    throw new ConfigKeyError({
      key: configKey.key,
      problem: 'it names a section, not a value; set one of its keys',
      validKeys: listConfigKeys(),
    });
  }
  const type = schemaDefinition(configKey.schema).type;
  let value: unknown = text;
  if (type !== 'string') {
    try {
      value = parseYaml(text);
    } catch {
      value = text;
    }
  }
  const result = safeParse(configKey.schema, value, { error: friendlyErrorMap });
  if (!result.success) {
    const reason = result.error.issues.map((issue) => issue.message).join('; ');
    throw new ConfigKeyError({
      key: configKey.key,
      problem: `the value \`${text}\` is not accepted (${reason})`,
      validKeys: listConfigKeys(),
    });
  }
  return result.data;
}
