/** Reads an optional list-of-strings parameter; a single string counts as a list of one. Throws on other types. */
export function stringListParameter(
  params: Readonly<Record<string, unknown>>,
  name: string,
): readonly string[] | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new TypeError(
    `parameter ${name} must be a string or a list of strings, got ${JSON.stringify(value)}`,
  );
}

/** Reads an optional string parameter. Throws on other types. */
export function stringParameter(params: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  throw new TypeError(`parameter ${name} must be a string, got ${JSON.stringify(value)}`);
}
