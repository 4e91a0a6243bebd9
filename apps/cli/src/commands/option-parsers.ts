import { InvalidArgumentError } from '@commander-js/extra-typings';

/** Reads `--timeout 600`: a whole number of seconds above zero. */
export function parsePositiveInteger(value: string): number {
  const trimmed = value.trim();
  const parsed = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError(`expected a whole number above zero, like 600; got "${value}".`);
  }
  return parsed;
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Reads `--older-than 7d` (units s, m, h, d, w) into milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([smhdw])$/.exec(value.trim());
  const unit = match?.[2] === undefined ? undefined : DURATION_UNITS[match[2]];
  if (match === null || unit === undefined) {
    throw new InvalidArgumentError(
      `expected a number and a unit (s, m, h, d or w), like 7d or 12h; got "${value}".`,
    );
  }
  return Number(match[1]) * unit;
}

/** Collects a repeatable option (`-m a -m b`) into a list, in the order given. */
export function collectRepeated(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
