/**
 * Reads a cap flag (`--max-cost 2.50`, `--max-tokens 200000`, `task approve --budget 5`) into a number. Only
 * the shape is read here; whether the value is a usable cap (above zero, whole tokens) is core's decision,
 * refused with `BUDGET_INVALID` naming the flag, so `snodo run` and embedders are held to the same rule.
 */
export function parseCapValue(value: string): number {
  const trimmed = value.trim().replace(/^\$/, '');
  return trimmed === '' ? Number.NaN : Number(trimmed);
}
